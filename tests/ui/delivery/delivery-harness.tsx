import { act, render, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import type { ReactNode } from "react";
import { MemoryRouter, Route, Routes, useLocation, useNavigate, type NavigateFunction } from "react-router";
import { expect, vi } from "vitest";
import { fromPromise, type AnyMachineSnapshot, type DoneActorEvent, type EventObject } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { ItineraryResponse, Order } from "../../../domain/contract/index.ts";
import { isOther, namesLockedToPatient, recipientSkipped, relationshipName, courierNotesRequired, type RecipientForm } from "../../../domain/recipient.ts";
import { BUTTON_DEBOUNCE_MS, TEXT } from "../../../domain/texts.ts";
import { FAILURE_REASONS, ORDER_STATUSES, RELATIONSHIPS } from "../../../domain/vocabulary.ts";
import { courierDayMachine, type DayLoad } from "../../../machines/courier-day.machine.ts";
import { submissionKindOf, type DeliveryStep } from "../../../domain/delivery-record.ts";
import type { DeliveryFlowContext, DeliveryFlowEvent } from "../../../machines/delivery-flow.machine.ts";
import type { DeliverySubmitOutput } from "../../../machines/delivery-submit.machine.ts";
import type { PhotoProofOutput } from "../../../machines/photo-proof.machine.ts";
import { photoRequired } from "../../../domain/delivery-photo.ts";
import { DONE, QUEUED, SERVER } from "../../support/delivery-flow-events.ts";
import { DELIVERY_STEP_PATHS } from "../../../src/features/delivery/delivery-paths.ts";
import type { PaymentOutput } from "../../../domain/payment-step.ts";
import { CourierDayContext } from "../../../src/shell/app-actor.ts";
import { AppWithDay } from "../app-harness.tsx";
import { Component as DeliveryRoutes } from "../../../src/features/delivery/DeliveryRoutes.tsx";
import { PharmaciesScreen } from "../../../src/features/pharmacies/PharmaciesScreen.tsx";
import { callOf, calls } from "./delivery-mocks.ts";

export { calls, callOf, deliveryMocks, FakeSignaturePad, SIGNATURE_SVG, type PendingCall } from "./delivery-mocks.ts";

/**
 * Renders the delivery feature for tests and plays a delivery-flow model path
 * through it the way a courier would: tapping, typing, choosing. The three
 * POST /api/courier/deliveries adapters and the card API are replaced by
 * calls the test settles (vi.mock in each test file with delivery-mocks.ts).
 */

export const TODAY = "2026-11-21";
export const SUPPORT_PHONE = "2155550100";
export const SUPPORT_PHONE_SHOWN = "(215) 555-0100";

/** Before each test: nothing pending, no flow saved, no navigation to tel: links. */
export function resetHarness(): void {
  calls.length = 0;
  window.localStorage.clear();
  window.scrollTo = vi.fn();
  HTMLCanvasElement.prototype.getContext = vi.fn(() => null);
}

if (typeof document !== "undefined") {
  // jsdom cannot navigate to tel: links; React's handler still runs.
  document.addEventListener("click", (event) => {
    if ((event.target as Element | null)?.closest?.('a[href^="tel:"]')) event.preventDefault();
  }, true);
}

// ---------------------------------------------------------------- the day and the app around the feature

export function itineraryWith(orders: Order[]): ItineraryResponse {
  return {
    courier: { id: 7, first_name: "Dana", last_name: "Whitfield" },
    service_date: TODAY,
    support_phone: SUPPORT_PHONE,
    feature_flags: { self_service_addons_enabled: false },
    pharmacy_visits: [],
    orders,
    statuses: ORDER_STATUSES.map((status) => ({ ...status })),
    relationships: RELATIONSHIPS.map((relationship) => ({ ...relationship })),
    failure_reasons: FAILURE_REASONS.map((reason) => ({ ...reason })),
  };
}

function DayReady({ children }: { children: ReactNode }) {
  const ready = CourierDayContext.useSelector((state) => state.context.day !== null);
  return ready ? <>{children}</> : <p>Loading your day…</p>;
}

let navigateTo: NavigateFunction | null = null;
let dayOrders: () => Order[] = () => [];

function Probe() {
  navigateTo = useNavigate();
  const location = useLocation();
  const day = CourierDayContext.useActorRef();
  dayOrders = () => day.getSnapshot().context.day?.orders ?? [];
  return <output data-testid="location">{location.pathname}</output>;
}

export function renderDelivery(itinerary: ItineraryResponse, url: string) {
  const logic = courierDayMachine.provide({
    actors: {
      loadDay: fromPromise<DayLoad>(async () => ({ itinerary, source: "server" })),
      saveDay: fromPromise<void, { day: ItineraryResponse }>(async () => undefined),
    },
  });
  const user = userEvent.setup();
  const view = render(
    <AppWithDay day={logic}>
      <DayReady>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/pharmacies" element={<PharmaciesScreen />} />
            <Route path="/pharmacies/:pharmacyId/deliver_orders/*" element={<DeliveryRoutes />} />
            <Route path="*" element={<p>Elsewhere</p>} />
          </Routes>
          <Probe />
        </MemoryRouter>
      </DayReady>
    </AppWithDay>,
  );
  return { ...view, user };
}

export const currentPath = () => screen.getByTestId("location").textContent ?? "";
export const currentDayOrders = () => dayOrders();

export async function goTo(path: string): Promise<void> {
  await act(async () => {
    await navigateTo!(path);
  });
}

export async function expectPath(path: string): Promise<void> {
  await waitFor(() => {
    if (currentPath() !== path) throw new Error(`at ${currentPath()}, expected ${path}`);
  });
}

// ---------------------------------------------------------------- the courier's hand

type User = ReturnType<typeof userEvent.setup>;

const button = (name: string) => screen.getByRole("button", { name });

let lastTap: { element: Element | null; at: number } = { element: null, at: 0 };

/** Spec §9: a second tap on the same button within 200 ms is ignored, so a courier (and this test) waits that long. */
async function afterDebounce(element: Element): Promise<void> {
  const wait = lastTap.element === element ? lastTap.at + BUTTON_DEBOUNCE_MS + 10 - Date.now() : 0;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

export async function clickEnabled(user: User, name: string) {
  const target = await waitFor(() => {
    const found = button(name);
    if ((found as HTMLButtonElement).disabled) throw new Error(`"${name}" is disabled`);
    return found;
  });
  await afterDebounce(target);
  await user.click(target);
  // Taken after the click: on a busy machine the click event's own time can be well after it began.
  lastTap = { element: target, at: Date.now() };
}

async function answerDialog(user: User, answer: "OK" | "Cancel") {
  const dialog = await screen.findByRole("alertdialog");
  await user.click(within(dialog).getByRole("button", { name: answer }));
  await waitFor(() => {
    if (screen.queryByRole("alertdialog")) throw new Error("the dialog is still open");
  });
}

const FIELD_LABELS = {
  first_name: "First name",
  last_name: "Last name",
  other_description: "Relationship to the patient",
  courier_notes: "Courier notes",
} as const;

async function retype(user: User, label: string | RegExp, value: string) {
  const field = screen.getByLabelText(label);
  await user.clear(field);
  if (value !== "") await user.type(field, value);
}

const at = (snapshot: AnyMachineSnapshot, step: DeliveryStep) => snapshot.matches({ steps: step });
const contextOf = (snapshot: AnyMachineSnapshot) => snapshot.context as DeliveryFlowContext;

/**
 * A model path's event as the flow takes it: one of its own, or the answer of
 * the payment, photo or submit child. The graph hands every event over as a
 * plain EventObject; read here once, each case below is typed by its event.
 */
type PathEvent =
  | DeliveryFlowEvent
  | DoneActorEvent<PaymentOutput, "payment">
  | DoneActorEvent<PhotoProofOutput, "photo">
  | DoneActorEvent<DeliverySubmitOutput, "submit">;
const pathEvent = (event: EventObject) => event as PathEvent;

/**
 * Whether the courier can send this event through the screen as it is: the
 * machine may take events (typing into a field) that the step does not offer
 * in that state (the field is not shown). Model paths are generated with
 * only these, so every path is one a courier could walk.
 */
export function courierCanSend(snapshot: AnyMachineSnapshot, sent: EventObject): boolean {
  const context = contextOf(snapshot);
  const event = pathEvent(sent);
  const form: RecipientForm = context.recipient;
  switch (event.type) {
    case "RECIPIENT_CALLED":
      return at(snapshot, "address") && context.order.phone_number != null;
    case "RECIPIENT_CHANGED": {
      const grouped = context.groupedOrderIds.length > 0;
      return Object.keys(event.changes).every((key) => {
        if (key === "first_name" || key === "last_name") return form.relationship_id != null && !recipientSkipped(form) && !namesLockedToPatient(form, grouped);
        if (key === "other_description") return isOther(form);
        if (key === "courier_notes") return courierNotesRequired(form);
        return false;
      });
    }
    case "SIGNATURE_CHANGED":
      return context.signature.refusal_reason == null && (event.svg != null || context.signature.svg != null);
    case "REFUSAL_CHANGED":
      return context.order.pharmacy.can_skip_signature && context.signature.svg == null;
    // One box: a tap ticks it (asking first) or unticks it.
    // The Remove button is shown only with a photo to remove.
    case "PHOTO_CHANGED":
      return event.photo != null || context.photo != null;
    // Continue on the photo screen is enabled with a photo, or where the pharmacy does not require one.
    case "xstate.done.actor.photo":
      return !event.output.accepted || context.photo != null || !photoRequired(context.order);
    case "TICK_FAILED":
      return !form.failed;
    case "UNTICK_FAILED":
      return form.failed;
    default:
      return true;
  }
}

const API_CALLS = { failure: "submitFailure", recipient: "submitRecipient", delivery: "submitDelivery" } as const;

/**
 * What the submit machine answers the flow, played on the screen: the API call answers (sent, or
 * kept on the device after a network failure), or it fails, the alert shows, and the courier taps Cancel.
 */
async function settleSubmission(user: User, actor: string, { sent, queued }: DeliverySubmitOutput): Promise<void> {
  const call = await callOf(actor);
  if (sent) return act(async () => call.resolve(queued ? QUEUED : DONE));
  await act(async () => call.reject(SERVER));
  expect(await screen.findByRole("alert")).toHaveTextContent(TEXT.serverError);
  return clickEnabled(user, "Cancel");
}

/** Plays one model event on the screen. `before` is the model's state the event is sent in. */
export async function perform(user: User, sent: EventObject, before: AnyMachineSnapshot, base: string): Promise<void> {
  const event = pathEvent(sent);
  switch (event.type) {
    case "xstate.done.actor.payment":
      return pay(user, event.output);
    // The photo machine answers Continue or Back, the courier's taps on the photo screen.
    case "xstate.done.actor.photo":
      return clickEnabled(user, event.output.accepted ? TEXT.continue : "Back");
    // The submit child's call goes out through the API function for the record's call (submitFailure, …).
    case "xstate.done.actor.submit":
      return settleSubmission(user, API_CALLS[submissionKindOf(contextOf(before))], event.output);
    case "GO_TO_STEP":
      return goTo(`${base}/${DELIVERY_STEP_PATHS[event.step]}`);
    case "PRESENT_AT_ADDRESS":
      return clickEnabled(user, TEXT.presentAtAddress);
    case "ADDRESS_INCORRECT":
      return clickEnabled(user, TEXT.addressIncorrect);
    case "DOB_VERIFIED":
      return clickEnabled(user, TEXT.dobVerified);
    case "DOB_NOT_VERIFIED":
      return clickEnabled(user, TEXT.dobNotVerified);
    case "CONFIRM":
      return answerDialog(user, "OK");
    case "CANCEL":
      return answerDialog(user, "Cancel");
    case "CONTINUE":
      return clickEnabled(user, TEXT.continue);
    case "SELECT_RELATIONSHIP":
      return user.click(screen.getByRole("radio", { name: relationshipName(event.relationship_id)! }));
    case "RECIPIENT_CHANGED": {
      for (const [key, value] of Object.entries(event.changes)) await retype(user, FIELD_LABELS[key as keyof typeof FIELD_LABELS], value ?? "");
      return;
    }
    case "SET_GROUPED":
    case "TICK_FAILED":
    case "UNTICK_FAILED":
      return user.click(screen.getByRole("checkbox", { name: event.type === "SET_GROUPED" ? TEXT.groupOrders : TEXT.failedDeliveryTick }));
    case "RECIPIENT_CALLED":
      return user.click(screen.getByRole("link", { name: /Call the patient/ }));
    case "ID_CHANGED": {
      const { changes } = event;
      if (changes.type != null) await user.selectOptions(screen.getByLabelText("ID type"), changes.type);
      if (changes.state) await user.selectOptions(screen.getByLabelText("State"), changes.state);
      if (changes.number !== undefined) await retype(user, "ID number", changes.number);
      if (changes.expiration !== undefined) await retype(user, "Expiration date", changes.expiration.replace(/\D/g, ""));
      return;
    }
    case "ID_NOT_PROVIDED":
      return clickEnabled(user, TEXT.unableToProvideId);
    case "SIGNATURE_CHANGED":
      return event.svg ? signPad() : user.click(button("Clear"));
    case "REFUSAL_CHANGED": {
      const { reason, notes } = event;
      const box = screen.getByRole("checkbox", { name: "The recipient did not sign" });
      if (reason == null) {
        if ((box as HTMLInputElement).checked) await user.click(box);
        return;
      }
      if (!(box as HTMLInputElement).checked) await user.click(box);
      await user.selectOptions(screen.getByLabelText("Reason"), reason);
      return retype(user, /^Notes/, notes);
    }
    case "PHOTO_CHANGED":
      // The camera's file; the image code that shrinks it is mocked in jsdom (no canvas) and runs for real in Chromium (e2e).
      if (event.photo == null) return clickEnabled(user, "Remove photo");
      return user.upload(screen.getByLabelText(/^(Take a photo|Retake photo)$/), new File([new Uint8Array([0xff, 0xd8, 0xff])], "camera.jpg", { type: "image/jpeg" }));
    case "SURVEY_CHANGED": {
      const { answers } = event;
      const questions: Record<string, string> = {
        have_you_left_prescription_at_pharmacy: "Have you left a prescription at the pharmacy?",
        use_delivery_service_again: "Would you use the delivery service again?",
        refill_reminder_opt_in: "Would you like refill reminders?",
      };
      for (const [question, answer] of Object.entries(answers)) {
        const group = screen.getByRole("group", { name: questions[question]! });
        await user.click(within(group).getByRole("radio", { name: answer ? "Yes" : "No", hidden: true }));
      }
      return;
    }
    default:
      return settleCall(sent);
  }
}

/** Any other child's answer (a call's result or its failure): the pending call the screen made settles with it. */
async function settleCall(event: EventObject): Promise<void> {
  const settle = /^xstate\.(done|error)\.actor\.(.+)$/.exec(event.type);
  if (!settle) throw new Error(`no courier action for ${event.type}`);
  const [, outcome, actor] = settle;
  const call = await callOf(actor!);
  await act(async () => {
    if (outcome === "done") call.resolve((event as { output?: unknown }).output);
    else call.reject((event as { error?: ApiFailure }).error);
  });
}

/** A stroke on the pad, once the (lazily loaded) pad is on the canvas. */
export async function signPad(): Promise<void> {
  const canvas = await screen.findByRole("img", { name: /Signature pad/ });
  await waitFor(() => {
    if (canvas.dataset.padReady !== "true") throw new Error("the pad is not loaded yet");
  });
  await act(async () => {
    canvas.dispatchEvent(new Event("pointerup", { bubbles: true }));
  });
}

/** The payment child's outcome, the way the courier gets there on the payment step. */
async function pay(user: User, output: PaymentOutput): Promise<void> {
  await screen.findByRole("group", { name: "Payment method" });
  if (output.outcome === "collected") {
    await user.click(screen.getByRole("radio", { name: "Cash" }));
    return clickEnabled(user, TEXT.continue);
  }
  if (output.outcome === "not_collected") {
    // Where the pharmacy must collect, only a card makes 'Unable to pay' a delivery without payment.
    await user.click(screen.getByRole("radio", { name: "Card" }));
    await screen.findByRole("textbox", { name: "Card number" });
    await clickEnabled(user, "Unable to pay");
    return answerDialog(user, "OK");
  }
  await clickEnabled(user, "Unable to pay");
  return answerDialog(user, "OK");
}
