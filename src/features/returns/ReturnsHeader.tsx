import type { ReactNode } from "react";
import { Link } from "react-router";

const BackIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M15 5l-7 7 7 7" />
  </svg>
);

/**
 * A returns screen's header: the way back one step (a link out of returns,
 * or an event for the machine), the title and the pharmacy.
 */
export function ReturnsHeader({
  title,
  pharmacyName,
  back,
}: {
  title: string;
  pharmacyName: string;
  back: { to: string; label: string } | { onBack: () => void; label: string; disabled?: boolean };
}): ReactNode {
  return (
    <header className="step-header">
      {"to" in back ? (
        <Link className="step-header__back" to={back.to}>
          <BackIcon />
          {back.label}
        </Link>
      ) : (
        <button type="button" className="step-header__back returns-back" onClick={back.onBack} disabled={back.disabled}>
          <BackIcon />
          {back.label}
        </button>
      )}
      <h1 className="screen__title step-header__title">{title}</h1>
      <p className="step-header__sub">{pharmacyName}</p>
    </header>
  );
}
