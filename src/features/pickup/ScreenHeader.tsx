import type { ReactNode } from "react";
import { Link } from "react-router";

const BackIcon = () => (
  <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
    <path d="M15 5l-7 7 7 7" />
  </svg>
);

/** A pickup screen's header: the spec's step name as the title and a way back one step. */
export function ScreenHeader({ title, back, children }: { title: string; back: { to: string; label: string }; children?: ReactNode }) {
  return (
    <header className="step-header">
      <Link className="step-header__back" to={back.to}>
        <BackIcon />
        {back.label}
      </Link>
      <h1 className="screen__title step-header__title">{title}</h1>
      {children}
    </header>
  );
}
