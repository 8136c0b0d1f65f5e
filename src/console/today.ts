/** Today's calendar day (YYYY-MM-DD) on this computer: the board's first service date; the 'Service date' input picks another. */
export function localToday(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
