import { useMemo } from "react";
import { ConsoleSession } from "./session-context.ts";

const STYLE = { dateStyle: "medium", timeStyle: "short" } as const;

/**
 * Times as the people running the day read them: in the service's time zone
 * (the server's SERVICE_TIME_ZONE, given with the session), whatever the
 * computer's own zone; the computer's only when the browser does not know it.
 */
export function useServiceTime(): (iso: string | null | undefined) => string {
  const timeZone = ConsoleSession.useSelector((snapshot) => snapshot.context.serviceTimeZone);
  return useMemo(() => {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat("en-US", { ...STYLE, timeZone: timeZone ?? undefined });
    } catch {
      // RangeError: an unknown zone name in this browser.
      format = new Intl.DateTimeFormat("en-US", STYLE);
    }
    return (iso) => (iso ? format.format(new Date(iso)) : "—");
  }, [timeZone]);
}
