import { useSelector } from "@xstate/react";
import type { OpsCourier } from "../../../domain/contract/ops.ts";
import { NO_PROGRESS } from "../../../domain/courier-progress.ts";
import { phoneForReading } from "../../../domain/phone.ts";
import type { InviteField } from "../../../machines/console-couriers.machine.ts";
import { ConsoleHeader } from "../ConsoleHeader.tsx";
import { LiveStatus } from "../LiveStatus.tsx";
import { serviceDayScreen, type ScreenActor } from "../ConsoleScreen.tsx";
import { NoticeSlot, ScreenAlert } from "../ScreenMessages.tsx";
import "../panels.css";
import "./couriers.css";

const FIELDS: { field: InviteField; label: string; type: string; autoComplete: string; optional?: boolean }[] = [
  { field: "first_name", label: "First name", type: "text", autoComplete: "off" },
  { field: "last_name", label: "Last name", type: "text", autoComplete: "off" },
  { field: "email", label: "Email", type: "email", autoComplete: "off" },
  { field: "phone_number", label: "Phone number (optional)", type: "tel", autoComplete: "off", optional: true },
];

const standing = (courier: OpsCourier) => (!courier.active ? "Deactivated" : courier.password_set ? "Active" : "Invited, no password yet");

/** /dispatch/couriers (issue 27, dispatchers only): every courier with today's progress, live; invite, invite again, deactivate. */
export const CouriersScreen = serviceDayScreen("couriers", Couriers);

function Couriers({ actor }: { actor: ScreenActor<"couriers"> }) {
  const state = useSelector(actor, (snapshot) => snapshot.value.data);
  const connection = useSelector(actor, (snapshot) => snapshot.value.connection);
  const context = useSelector(actor, (snapshot) => snapshot.context);

  const busy = state === "inviting" || state === "reinviting" || state === "deactivating";
  const pending = context.confirming;
  const pendingCourier = pending ? context.couriers.find((courier) => courier.id === pending.courierId) : undefined;
  const pendingName = pendingCourier ? `${pendingCourier.first_name} ${pendingCourier.last_name}` : "";

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-couriers">
        <div className="console-board__top">
          <h1>Couriers</h1>
          <LiveStatus connection={connection} />
        </div>

        <ScreenAlert error={context.error} onRetry={state === "failed" ? () => actor.send({ type: "RETRY" }) : undefined} />
        <NoticeSlot>
          {context.notice && (
            <>
              <p>{context.notice.text}</p>
              {context.notice.inviteToken && (
                <label className="console-field">
                  <span>Set-password link</span>
                  <input readOnly value={`${window.location.origin}/set-password?token=${encodeURIComponent(context.notice.inviteToken)}`} onFocus={(event) => event.target.select()} />
                </label>
              )}
            </>
          )}
        </NoticeSlot>

        {pending && (state === "confirming" || state === "reinviting" || state === "deactivating") && (
          <div className="console-confirm" role="alertdialog" aria-labelledby="confirm-title" aria-describedby="confirm-text">
            <h2 id="confirm-title">{pending.action === "deactivate" ? `Deactivate ${pendingName}?` : `Re-invite ${pendingName}?`}</h2>
            <p id="confirm-text">
              {pending.action === "deactivate"
                ? "They can no longer log in, and every session they have ends at once. Their orders stay where they are."
                : "They get a new set-password link, valid 7 days; any earlier link stops working."}
            </p>
            <div className="console-actions">
              <button type="button" className="console-button" autoFocus aria-disabled={busy || undefined} onClick={() => !busy && actor.send({ type: "CONFIRM" })}>
                {busy ? "Working…" : pending.action === "deactivate" ? "Deactivate" : "Re-invite"}
              </button>
              <button type="button" className="console-button console-button--quiet" aria-disabled={busy || undefined} onClick={() => !busy && actor.send({ type: "CANCEL" })}>
                Cancel
              </button>
            </div>
          </div>
        )}

        <div className="console-split console-split--main-first">
          <section className="console-region" aria-labelledby="couriers-list">
            <h2 id="couriers-list">Couriers and today's progress</h2>
            {state === "loading" ? (
              <p role="status">Loading the couriers…</p>
            ) : context.couriers.length === 0 ? (
              <p className="console-empty">No courier yet: invite one.</p>
            ) : (
              <table className="console-table">
                <thead>
                  <tr>
                    <th scope="col">Courier</th>
                    <th scope="col">Account</th>
                    <th scope="col">Delivered</th>
                    <th scope="col">Attempted</th>
                    <th scope="col">Left</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {context.couriers.map((courier) => {
                    const progress = context.progress[courier.id] ?? NO_PROGRESS;
                    const name = `${courier.first_name} ${courier.last_name}`;
                    return (
                      <tr key={courier.id} className={courier.active ? undefined : "console-table__row--inactive"}>
                        <th scope="row">
                          <span className="console-table__name">{name}</span>
                          <span className="console-table__meta">{courier.email}</span>
                          {courier.phone_number && <span className="console-table__meta">{phoneForReading(courier.phone_number)}</span>}
                        </th>
                        <td>{standing(courier)}</td>
                        <td>{progress.delivered}</td>
                        <td>{progress.attempted}</td>
                        <td>{progress.left}</td>
                        <td>
                          {courier.active && (
                            <div className="console-actions">
                              <button type="button" className="console-button console-button--small console-button--quiet" aria-label={`Re-invite ${name}`} onClick={() => actor.send({ type: "ASK_REINVITE", courierId: courier.id })}>
                                Re-invite
                              </button>
                              <button type="button" className="console-button console-button--small console-button--danger" aria-label={`Deactivate ${name}`} onClick={() => actor.send({ type: "ASK_DEACTIVATE", courierId: courier.id })}>
                                Deactivate
                              </button>
                            </div>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            )}
          </section>

          <section className="console-region" aria-labelledby="invite-title">
            <h2 id="invite-title">Invite a courier</h2>
            <form
              className="console-form"
              noValidate
              onSubmit={(event) => {
                event.preventDefault();
                if (state === "ready") actor.send({ type: "INVITE" });
              }}
            >
              {FIELDS.map(({ field, label, type, autoComplete }) => {
                const error = context.fieldErrors[field];
                return (
                  <div key={field} className="console-field">
                    <label htmlFor={`invite-${field}`}>{label}</label>
                    <input
                      id={`invite-${field}`}
                      type={type}
                      name={field}
                      autoComplete={autoComplete}
                      value={context.draft[field]}
                      aria-invalid={error ? true : undefined}
                      aria-describedby={error ? `invite-${field}-error` : undefined}
                      onChange={(event) => actor.send({ type: "EDIT_INVITE", field, value: event.target.value })}
                    />
                    {error && (
                      <span id={`invite-${field}-error`} className="console-field__error">
                        {error}
                      </span>
                    )}
                  </div>
                );
              })}
              <button type="submit" className="console-button" aria-disabled={state !== "ready" || undefined}>
                {state === "inviting" ? "Inviting…" : "Invite courier"}
              </button>
            </form>
          </section>
        </div>
      </main>
    </div>
  );
}
