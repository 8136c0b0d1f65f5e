import { useMachine } from "@xstate/react";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { fromPromise } from "xstate";
import { PASSWORD_MIN_LENGTH } from "../../../domain/password-rules.ts";
import { passwordRuleText, SET_PASSWORD_TEXT as T } from "../../../domain/set-password-texts.ts";
import { setPasswordMachine } from "../../../machines/set-password.machine.ts";
import { setPassword } from "../../api/onboarding.ts";
// The app's actor module, for the build only: every screen loaded on demand reaches it, and so the
// modules the first screen shares with them stay in one chunk. Without it the bundler splits xstate,
// @xstate/react and ky into chunks of their own, and the first screen grows 1.3 KiB gzip past its
// budget (tests/unit/bundle-budget.test.ts).
import "../../shell/app-actor.ts";

const appSetPasswordMachine = setPasswordMachine.provide({
  actors: { setPassword: fromPromise(({ input }) => setPassword(input.token, input.password)) },
});

/**
 * /set-password?token=… (loaded on demand): the invited courier chooses a
 * password from the link dispatch sent, then logs in as usual. Outside the
 * logged-in layout, like /login: no session is needed.
 */
export function Component() {
  const [params] = useSearchParams();
  const [state, send] = useMachine(appSetPasswordMachine, { input: { token: params.get("token") } });
  const [password, setPasswordValue] = useState("");
  const [confirmation, setConfirmation] = useState("");

  if (state.matches("done")) {
    return (
      <main className="screen screen--login">
        <p className="brand">Rx Courier</p>
        <h1 className="screen__title">{T.doneTitle}</h1>
        <p className="notice notice--ok" role="status">
          {T.done}
        </p>
        <div className="actions">
          <Link className="button button--block" to="/login" replace>
            {T.goToLogin}
          </Link>
        </div>
      </main>
    );
  }

  const noInvite = state.matches("noInvite");
  if (noInvite || state.matches("inviteUnusable")) {
    return (
      <main className="screen screen--login">
        <p className="brand">Rx Courier</p>
        <h1 className="screen__title">{noInvite ? T.forgotTitle : T.inviteUnusableTitle}</h1>
        <p className="notice notice--warn" role="alert">
          {noInvite ? T.forgot : T.inviteUnusable}
        </p>
        <div className="actions">
          <Link className="button button--secondary button--block" to="/login">
            {T.backToLogin}
          </Link>
        </div>
      </main>
    );
  }

  const submitting = state.matches("submitting");
  const error = state.context.error;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send({ type: "SUBMIT", password, confirmation });
  };

  return (
    <main className="screen screen--login">
      <p className="brand">Rx Courier</p>
      <h1 className="screen__title">{T.title}</h1>
      <p className="lead">{T.lead}</p>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label className="field__label" htmlFor="new-password">
            {T.newPassword}
          </label>
          <input
            className="input"
            id="new-password"
            type="password"
            name="new-password"
            autoComplete="new-password"
            required
            aria-describedby="password-rule"
            value={password}
            onChange={(event) => setPasswordValue(event.target.value)}
          />
          <span className="field__hint" id="password-rule">
            {passwordRuleText(PASSWORD_MIN_LENGTH)}
          </span>
        </div>
        <label className="field">
          <span className="field__label">{T.confirmPassword}</span>
          <input
            className="input"
            type="password"
            name="confirm-password"
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(event) => setConfirmation(event.target.value)}
          />
        </label>
        {error && (
          <p className="notice notice--error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="button button--block" disabled={submitting || !password || !confirmation}>
          {submitting ? T.submitting : T.submit}
        </button>
      </form>
    </main>
  );
}
