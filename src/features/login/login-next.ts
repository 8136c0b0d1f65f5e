/** Where a courier goes when nothing else is asked for. */
export const HOME_PATH = "/dashboard";

/**
 * Where the login screen sends a courier who just logged in. `next` is the
 * page someone was sent away from: followed only for that courier (on a
 * shared phone it names another courier's pharmacy or order), only when it is
 * a path of this app (never an open redirect), and home otherwise. With no
 * record of who was sent away (a link opened on a fresh phone), the link is
 * the courier's own.
 */
export function pathAfterLogin(next: string | null, courierId: number | null, sentAwayCourierId: number | null): string {
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return HOME_PATH;
  return sentAwayCourierId === null || sentAwayCourierId === courierId ? next : HOME_PATH;
}
