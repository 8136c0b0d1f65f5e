import { useState, type FormEvent } from "react";
import { CredentialFields } from "../ui/CredentialFields.tsx";
import { ConsoleSession } from "./session-context.ts";

/** /dispatch/login: a dispatcher or pharmacist logs in with the password they set from their invitation. */
export function LoginScreen() {
  const session = ConsoleSession.useActorRef();
  const state = ConsoleSession.useSelector((snapshot) => snapshot.value);
  const error = ConsoleSession.useSelector((snapshot) => snapshot.context.error);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const busy = state === "loggingIn";

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !email.trim() || !password) return;
    session.send({ type: "LOG_IN", email: email.trim(), password });
  };

  return (
    <main className="console-main console-login">
      <div className="console-card">
        <h1>Rx Courier dispatch</h1>
        <p className="console-lead">Log in to run the day: orders, couriers and deliveries.</p>
        <form className="console-form" onSubmit={submit} noValidate>
          <CredentialFields email={email} password={password} onEmail={setEmail} onPassword={setPassword} classes={{ field: "console-field" }} />
          {error && (
            <p className="console-alert" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="console-button" aria-disabled={busy || undefined}>
            {busy ? "Logging in…" : "Log in"}
          </button>
        </form>
        <p className="console-hint">
          New here? Use the link in your invitation to set a password. Forgotten it? Ask a dispatcher for a new invitation.
        </p>
      </div>
    </main>
  );
}
