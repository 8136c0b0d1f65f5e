import { useEffect, useId, useRef, useState } from "react";
import { Link, useLocation } from "react-router";
import { formatPhone, telHref } from "../../domain/phone.ts";
import { HomeIcon, MenuIcon, PhoneIcon, RefreshIcon } from "../ui/icons.tsx";
import { ConfirmDialog } from "../ui/ConfirmDialog.tsx";
import { useHasIncompleteOrders } from "../shell/offline-queue.ts";
import { CourierDayContext, SessionContext } from "../shell/app-actor.ts";

/** Logging out clears the device; orders not yet sent would be lost with it. */
const UNSENT_LOGOUT_WARNING =
  "You have an incomplete order that has not been sent. Logging out now deletes it from this phone. Tap Try again first to send it.";

/** Spec §2: home (/dashboard), refresh, help (phone link), a menu with the courier name and Log out. */
export function NavBar() {
  const session = SessionContext.useActorRef();
  const courier = SessionContext.useSelector((state) => state.context.courier);
  const day = CourierDayContext.useActorRef();
  const supportPhone = CourierDayContext.useSelector((state) => state.context.day?.support_phone ?? null);
  const refreshing = CourierDayContext.useSelector((state) => state.matches("loading"));
  const location = useLocation();
  // The menu is not a history entry: any navigation closes it, Back included
  // (coming back to the page it was opened on must not open it again).
  const [menuOpen, setMenuOpen] = useState(false);
  const [seenKey, setSeenKey] = useState(location.key);
  if (seenKey !== location.key) {
    setSeenKey(location.key);
    if (menuOpen) setMenuOpen(false);
  }
  const menuId = useId();
  const unsent = useHasIncompleteOrders();
  const [confirmingLogout, setConfirmingLogout] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setMenuOpen(false);
        menuButton.current?.focus();
      }
    };
    // Back or Forward before the next page has rendered must close it too.
    const closeOnHistory = () => setMenuOpen(false);
    window.addEventListener("keydown", close);
    window.addEventListener("popstate", closeOnHistory);
    return () => {
      window.removeEventListener("keydown", close);
      window.removeEventListener("popstate", closeOnHistory);
    };
  }, [menuOpen]);

  const phoneLink = telHref(supportPhone);
  const phoneShown = formatPhone(supportPhone);

  return (
    <header className="navbar">
      <Link className="navbar__button" to="/dashboard" aria-label="Home">
        <HomeIcon />
      </Link>
      <span className="navbar__title">Rx Courier</span>
      <button
        type="button"
        className="navbar__button"
        aria-label="Refresh"
        aria-busy={refreshing}
        onClick={() => day.send({ type: "REFRESH" })}
      >
        <RefreshIcon />
      </button>
      {phoneLink ? (
        <a className="navbar__button" href={phoneLink} aria-label={`Help: call support at ${phoneShown}`}>
          <PhoneIcon />
        </a>
      ) : (
        <span className="navbar__button navbar__button--placeholder" aria-hidden="true" />
      )}
      <button
        ref={menuButton}
        type="button"
        className="navbar__button"
        aria-label="Menu"
        aria-expanded={menuOpen}
        aria-controls={menuId}
        onClick={() => setMenuOpen(!menuOpen)}
      >
        <MenuIcon />
      </button>
      {menuOpen && (
        <nav id={menuId} className="navbar__menu" aria-label="Account">
          <p className="navbar__courier">
            {courier ? `${courier.first_name} ${courier.last_name}` : ""}
          </p>
          {phoneLink && (
            <a className="menu-item" href={phoneLink}>
              Call support {phoneShown}
            </a>
          )}
          <Link className="menu-item" to="/machines" onClick={() => setMenuOpen(false)}>
            How the app works
          </Link>
          <button
            type="button"
            className="menu-item"
            onClick={() => (unsent ? setConfirmingLogout(true) : session.send({ type: "LOG_OUT" }))}
          >
            Log out
          </button>
        </nav>
      )}
      {confirmingLogout && (
        <ConfirmDialog
          message={UNSENT_LOGOUT_WARNING}
          confirmLabel="Log out anyway"
          cancelLabel="Stay logged in"
          onConfirm={() => {
            setConfirmingLogout(false);
            session.send({ type: "LOG_OUT" });
          }}
          onCancel={() => setConfirmingLogout(false)}
        />
      )}
    </header>
  );
}
