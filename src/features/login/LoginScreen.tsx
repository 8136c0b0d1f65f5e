import { useState, type FormEvent } from "react";
import { Link, Navigate, useSearchParams } from "react-router";
import { sentAwayCourierId } from "../../api/sessions.ts";
import { SessionContext } from "../../shell/app-actor.ts";
import { pathAfterLogin } from "./login-next.ts";

export function LoginScreen() {
  const session = SessionContext.useActorRef();
  const { state, error, courierId } = SessionContext.useSelector(
    (snapshot) => ({ state: snapshot.value, error: snapshot.context.error, courierId: snapshot.context.courier?.id ?? null }),
    (a, b) => a.state === b.state && a.error === b.error && a.courierId === b.courierId,
  );
  const [params] = useSearchParams();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  if (state === "loggedIn") return <Navigate to={pathAfterLogin(params.get("next"), courierId, sentAwayCourierId())} replace />;

  const busy = state === "loggingIn" || state === "checking";
  const submit = (event: FormEvent) => {
    event.preventDefault();
    session.send({ type: "LOG_IN", email: email.trim(), password });
  };

  return (
    <main className="screen screen--login">
      <h1 className="brand">Rx Courier</h1>
      <p className="lead">Log in to see today's pharmacies and deliveries.</p>
      <form className="form" onSubmit={submit} noValidate>
        <label className="field">
          <span className="field__label">Email</span>
          <input
            className="input"
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </label>
        <label className="field">
          <span className="field__label">Password</span>
          <input
            className="input"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </label>
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--block" disabled={busy || !email || !password}>
          {state === "loggingIn" ? "Logging in…" : "Log in"}
        </button>
      </form>
      {/* No self-service reset: /set-password without an invite says to ask dispatch for a new one. */}
      <Link to="/set-password">
        Forgot password?
      </Link>
    </main>
  );
}
