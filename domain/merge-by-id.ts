/** The day's list with the changed items in place of theirs, and new ones at the end (the server's answer wins). */
export function mergeById<T extends { id: number }>(current: T[], changed: T[]): T[] {
  const byId = new Map(changed.map((item) => [item.id, item]));
  const merged = current.map((item) => byId.get(item.id) ?? item);
  const known = new Set(current.map((item) => item.id));
  return [...merged, ...changed.filter((item) => !known.has(item.id))];
}
