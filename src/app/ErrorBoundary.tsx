import { Component, type ReactNode } from "react";
import { Link } from "react-router";
import { TEXT } from "../../domain/texts.ts";
import { reportRenderFailure, useReportRouteError } from "./error-reporting.ts";

function RenderFailure() {
  return (
    <main className="screen" role="alert">
      <p className="notice notice--error">{TEXT.renderFailure}</p>
      <div className="actions">
        <button type="button" className="button" onClick={() => window.location.reload()}>
          Refresh
        </button>
        <Link className="button button--secondary" to="/dashboard">
          Home
        </Link>
      </div>
    </main>
  );
}

/** Shown by the router when a screen throws while rendering. */
export function RouteErrorScreen() {
  useReportRouteError();
  return <RenderFailure />;
}

/** Catches a render failure inside the logged-in layout so the navigation bar stays usable. */
export class ScreenErrorBoundary extends Component<{ children: ReactNode; resetKey: string }, { failed: boolean; resetKey: string }> {
  override state = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    reportRenderFailure(error);
  }

  static getDerivedStateFromProps(props: { resetKey: string }, state: { failed: boolean; resetKey: string }) {
    // Navigating elsewhere (e.g. the home button) clears the failure.
    return props.resetKey !== state.resetKey ? { failed: false, resetKey: props.resetKey } : null;
  }

  override render() {
    return this.state.failed ? <RenderFailure /> : this.props.children;
  }
}
