import { useState, type FormEvent } from "react";
import { Link, Navigate, useSearchParams } from "react-router";
import { sentAwayCourierId } from "../../api/sessions.ts";
import { SessionContext } from "../../shell/app-actor.ts";
import { CredentialFields } from "../../ui/CredentialFields.tsx";
import { pathAfterLogin } from "./login-next.ts";

const FIELD_CLASSES = { field: "field", label: "field__label", input: "input" };

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
        <CredentialFields email={email} password={password} onEmail={setEmail} onPassword={setPassword} classes={FIELD_CLASSES} />
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
