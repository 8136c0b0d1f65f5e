import { NavLink } from "react-router";
import { ConsoleSession } from "./session-context.ts";

const ROLE_NAMES = { dispatcher: "Dispatcher", pharmacist: "Pharmacist" } as const;

/** The console's screens, in the order a dispatcher's day uses them; each screen adds its own entry here (roles: who sees it, everyone when left out). */
const SCREENS: { path: string; label: string; roles?: readonly ("dispatcher" | "pharmacist")[] }[] = [
  { path: "/dispatch", label: "Board" },
  { path: "/dispatch/import", label: "Import orders" },
  { path: "/dispatch/returns", label: "Returns" },
  { path: "/dispatch/plan", label: "Plan the day", roles: ["dispatcher"] },
  { path: "/dispatch/couriers", label: "Couriers", roles: ["dispatcher"] },
];

/** The bar above every signed-in screen: where to go, who is signed in, and 'Log out'. */
export function ConsoleHeader() {
  const session = ConsoleSession.useActorRef();
  const staff = ConsoleSession.useSelector((snapshot) => snapshot.context.staff);
  const loggingOut = ConsoleSession.useSelector((snapshot) => snapshot.value === "loggingOut");
  return (
    <header className="console-header">
      <p className="console-brand">Rx Courier dispatch</p>
      <nav aria-label="Console" className="console-nav">
        <ul>
          {SCREENS.filter((screen) => !screen.roles || (staff && screen.roles.includes(staff.role))).map((screen) => (
            <li key={screen.path}>
              <NavLink to={screen.path} end className="console-nav__link">
                {screen.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {staff && (
        <p className="console-who">
          {staff.first_name} {staff.last_name} · {ROLE_NAMES[staff.role]}
        </p>
      )}
      <button type="button" className="console-button console-button--quiet" aria-disabled={loggingOut || undefined} onClick={() => !loggingOut && session.send({ type: "LOG_OUT" })}>
        {loggingOut ? "Logging out…" : "Log out"}
      </button>
    </header>
  );
}
