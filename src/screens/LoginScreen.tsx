import { useState, type FormEvent } from "react";
import { Navigate, useSearchParams } from "react-router";
import { SessionContext } from "../app/session-context.ts";

/** Only same-app paths are followed after login: never an open redirect. */
function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/dashboard";
}

export function LoginScreen() {
  const session = SessionContext.useActorRef();
  const { state, error } = SessionContext.useSelector((snapshot) => ({ state: snapshot.value, error: snapshot.context.error }), (a, b) => a.state === b.state && a.error === b.error);
  const [params] = useSearchParams();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");

  if (state === "loggedIn") return <Navigate to={safeNext(params.get("next"))} replace />;

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
    </main>
  );
}
