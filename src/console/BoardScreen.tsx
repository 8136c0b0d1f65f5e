import { ConsoleSession } from "./session-context.ts";

const ROLE_NAMES = { dispatcher: "Dispatcher", pharmacist: "Pharmacist" } as const;

/** /dispatch: the day board (issue 27). This slice: who is logged in, and logging out. */
export function BoardScreen() {
  const session = ConsoleSession.useActorRef();
  const staff = ConsoleSession.useSelector((snapshot) => snapshot.context.staff);
  const loggingOut = ConsoleSession.useSelector((snapshot) => snapshot.value === "loggingOut");
  return (
    <div className="console-shell">
      <header className="console-header">
        <p className="console-brand">Rx Courier dispatch</p>
        {staff && (
          <p className="console-who">
            {staff.first_name} {staff.last_name} · {ROLE_NAMES[staff.role]}
          </p>
        )}
        <button type="button" className="console-button console-button--quiet" aria-disabled={loggingOut || undefined} onClick={() => !loggingOut && session.send({ type: "LOG_OUT" })}>
          {loggingOut ? "Logging out…" : "Log out"}
        </button>
      </header>
      <main className="console-main console-board">
        <h1>Day board</h1>
      </main>
    </div>
  );
}
