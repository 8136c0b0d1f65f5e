/** Tests run on a fixed day so the demo data and "today" always agree. */
export const TEST_DAY = "2026-11-21";
