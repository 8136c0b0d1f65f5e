import { assign, fromPromise, sendTo, setup } from "xstate";
import { failureText, toApiFailure } from "../domain/api-failure.ts";
import type { Order } from "../domain/contract/entities.ts";
import type { ReturnResponse, ReturnSubmission } from "../domain/contract/returns.ts";
import { dayChange, hasLinesOf, returnedOrdersOf, returnSubmissionOf, type ReturnRecord } from "../domain/return-record.ts";
import { bagsToReturn, returnSummary, STAFF_NAME_MAX_LENGTH, staffSignatureComplete, type ReturnDetailKind } from "../domain/returns.ts";
import type { DayChanged, FollowEvent, QueueChanged } from "./following.ts";
import { createLabelScannerMachine, type LabelMatched } from "./label-scanner.definition.ts";
import { nextOrderStatus } from "./order-status.ts";
import { SYSTEM_IDS } from "./system-ids.ts";

/**
 * Returns to the pharmacy (spec §2 /reconcile, /reconcile_details/{orders,
 * cash, check}, /reconcile_signature; §4 reconcile signature; §5 pharmacy
 * signature; §7 the reconcile signature form). The app's URL mirrors the
 * screen (summary, details of one kind, signature); a deep link is GO_TO,
 * which the machine takes or refuses by staying where it is.
 *
 * A return needs the pharmacy staff present, so it is never stored offline:
 * a failed submission shows the spec §8 text and keeps everything entered
 * for another try.
 *
 * On the summary, 'Scan' reads each bag's label as it goes back over the
 * counter and ticks it off (`tickedOrderIds`; the label-scanner machine,
 * invoked while scanning): a check the courier and the staff see, not a
 * step — Continue and the signature are as before.
 *
 * The machine follows the courier's day and the offline queue: it asks
 * both (FOLLOW) to tell it what changes — a refresh (DAY_CHANGED), the
 * stored orders resubmitted (QUEUE_CHANGED) — and the return is computed again.
 */

export type ReturnsView = { screen: "summary" } | { screen: "details"; kind: ReturnDetailKind } | { screen: "signature" };

export interface ReturnsInput {
  courierId: number;
  pharmacyId: number;
  /** The courier's orders of the day (only this pharmacy's are returned). */
  orders: Order[];
  /** Orders stored on the device await resubmission: spec §2 shows the alert instead of Returns. */
  incompleteOffline: boolean;
  /** The screen the URL asks for; the summary when absent. */
  view?: ReturnsView;
}

export interface StaffEntry {
  first_name: string;
  last_name: string;
}

/** What the return records (domain/return-record.ts builds the form from it), and the screens' own state. */
export interface ReturnsContext extends ReturnRecord {
  incompleteOffline: boolean;
  /** The screen asked for last; the machine goes back to it when the day changes under it. */
  requested: ReturnsView;
  staff: StaffEntry;
  /** The alert for a failed submission (spec §8), or null. */
  error: string | null;
  result: ReturnResponse["return"] | null;
  /** The returned orders as they are now: returned to the pharmacy, or reconciled. */
  returnedOrders: Order[];
}

export type ReturnsEvent =
  | { type: "VIEW_DETAILS"; kind: ReturnDetailKind }
  | { type: "SIGN" }
  | { type: "BACK" }
  | { type: "GO_TO"; view: ReturnsView }
  | DayChanged
  | QueueChanged
  | { type: "STAFF_CHANGED"; changes: Partial<StaffEntry> }
  | { type: "SIGNATURE_CHANGED"; svg: string | null }
  | { type: "LOCATED"; latitude: number; longitude: number }
  | { type: "SUBMIT" }
  | { type: "SCAN" }
  | LabelMatched;

export interface ReturnsOutput {
  result: ReturnResponse["return"];
  orders: Order[];
}

const SUMMARY: ReturnsView = { screen: "summary" };

/** The record as the day's or the queue's news leaves it. */
function followedChange(context: ReturnsContext, event: ReturnsEvent) {
  if (event.type === "DAY_CHANGED") return dayChange(context, event.orders, context.incompleteOffline);
  if (event.type === "QUEUE_CHANGED") return dayChange(context, context.orders, event.incompleteOffline);
  return { orders: context.orders, incompleteOffline: context.incompleteOffline, summary: context.summary, tickedOrderIds: context.tickedOrderIds };
}

/** What the app (or a test) provides, as stand-ins that fail until it does. */
const returnsCalls = {
  /** POST /courier/pharmacies/{id}/returns with the reconcile signature form. */
  submitReturn: fromPromise<ReturnResponse, ReturnSubmission>(async () => {
    throw new Error("provide submitReturn");
  }),
};
export type ReturnsCalls = typeof returnsCalls & { labelScanner: ReturnType<typeof createLabelScannerMachine> };

/** The machine with these calls, built once by whoever runs it (the app with its own; see session.definition.ts). */
export const createReturnsMachine = ({ labelScanner, ...calls }: Partial<ReturnsCalls> = {}) =>
  setup({
    types: {
      context: {} as ReturnsContext,
      events: {} as ReturnsEvent,
      input: {} as ReturnsInput,
      output: {} as ReturnsOutput,
    },
    actors: {
      /** The camera ticking bags off while the courier scans: the app provides its camera. */
      labelScanner: labelScanner ?? createLabelScannerMachine(),
      ...returnsCalls,
      ...calls,
    },
    guards: {
      incompleteOffline: ({ context }) => context.incompleteOffline,
      nothingToReturn: ({ context }) => context.summary.lines.length === 0,
      requestedDetails: ({ context }) => context.requested.screen === "details" && hasLinesOf(context.summary, context.requested.kind),
      requestedSignature: ({ context }) => context.requested.screen === "signature",
      /** A details page lists something: an empty kind has no page. */
      kindHasLines: ({ context, event }) => event.type === "VIEW_DETAILS" && hasLinesOf(context.summary, event.kind),
      /** A deep link to a details page of an empty kind is refused. */
      viewAllowed: ({ context, event }) =>
        event.type === "GO_TO" && (event.view.screen !== "details" || hasLinesOf(context.summary, event.view.kind)),
      /** Spec §5: first name, last name and signature are required. */
      signatureComplete: ({ context }) =>
        staffSignatureComplete({ ...context.staff, signed: context.signatureSvg !== null }),
      /** The changed day or queue still has the summary to show (not the alert, not "nothing to return"). */
      changeKeepsSummary: ({ context, event }) => {
        const { incompleteOffline, summary } = followedChange(context, event);
        return !incompleteOffline && summary.lines.length > 0;
      },
    },
    actions: {
      requestDetails: assign(({ event }) => (event.type === "VIEW_DETAILS" ? { requested: { screen: "details" as const, kind: event.kind } } : {})),
      requestSummary: assign({ requested: SUMMARY }),
      requestSignature: assign({ requested: { screen: "signature" } as ReturnsView }),
      requestView: assign(({ event }) => (event.type === "GO_TO" ? { requested: event.view } : {})),
      /** The day's orders or the queue's news: what goes back is computed again. */
      updateFollowed: assign(({ context, event }) => followedChange(context, event)),
      /** The day tells this return of every change to its orders, the queue whether orders wait, until the return ends. */
      followDay: sendTo(({ system }) => system.get(SYSTEM_IDS.courierDay), ({ self }): FollowEvent => ({ type: "FOLLOW", follower: self })),
      followQueue: sendTo(({ system }) => system.get(SYSTEM_IDS.offlineQueue), ({ self }): FollowEvent => ({ type: "FOLLOW", follower: self })),
      unfollowDay: sendTo(({ system }) => system.get(SYSTEM_IDS.courierDay), ({ self }): FollowEvent => ({ type: "UNFOLLOW", follower: self })),
      unfollowQueue: sendTo(({ system }) => system.get(SYSTEM_IDS.offlineQueue), ({ self }): FollowEvent => ({ type: "UNFOLLOW", follower: self })),
      /** The scanner ticks off the bags going back now. */
      tellScannerBags: sendTo("labelScanner", ({ context }) => ({ type: "BAGS_CHANGED" as const, bags: bagsToReturn(context.orders, context.summary) })),
      tickBag: assign(({ context, event }) => {
        if (event.type !== "LABEL_MATCHED" || context.tickedOrderIds.includes(event.orderId)) return {};
        return { tickedOrderIds: [...context.tickedOrderIds, event.orderId] };
      }),
      setStaff: assign(({ context, event }) => {
        if (event.type !== "STAFF_CHANGED") return {};
        const clamp = (value: string | undefined, current: string) => (value === undefined ? current : value.slice(0, STAFF_NAME_MAX_LENGTH));
        return {
          staff: { first_name: clamp(event.changes.first_name, context.staff.first_name), last_name: clamp(event.changes.last_name, context.staff.last_name) },
        };
      }),
      setSignature: assign(({ event }) => (event.type === "SIGNATURE_CHANGED" ? { signatureSvg: event.svg } : {})),
      setLocation: assign(({ event }) => (event.type === "LOCATED" ? { location: { latitude: event.latitude, longitude: event.longitude } } : {})),
      clearError: assign({ error: null }),
      showFailure: assign((_, error: unknown) => ({ error: failureText(toApiFailure(error)) })),
      storeResult: assign(({ context }, response: ReturnResponse) => ({ result: response.return, returnedOrders: returnedOrdersOf(context, nextOrderStatus) })),
      /** Every screen learns the returned orders: the day merges them (it runs in the application's system). */
      reportReturned: sendTo(
        ({ system }) => system.get(SYSTEM_IDS.courierDay),
        ({ context }) => ({ type: "ORDERS_CHANGED", orders: context.returnedOrders }),
      ),
    },
  }).createMachine({
    id: "returns",
    description: "Return undelivered items, cash and checks to the pharmacy, signed for by the pharmacy staff.",
    context: ({ input }) => ({
      courierId: input.courierId,
      pharmacyId: input.pharmacyId,
      orders: input.orders,
      incompleteOffline: input.incompleteOffline,
      summary: returnSummary(input.orders, input.pharmacyId),
      requested: input.view ?? SUMMARY,
      staff: { first_name: "", last_name: "" },
      signatureSvg: null,
      location: null,
      error: null,
      result: null,
      returnedOrders: [],
      tickedOrderIds: [],
    }),
    entry: ["followDay", "followQueue"],
    exit: ["unfollowDay", "unfollowQueue"],
    on: {
      LOCATED: { actions: "setLocation", description: "The browser geolocation, where granted (never on the local host)." },
    },
    initial: "opening",
    states: {
      opening: {
        description: "Which screen: the alert, nothing to return, or the screen asked for if it may be shown.",
        always: [
          { guard: "incompleteOffline", target: "blocked" },
          { guard: "nothingToReturn", target: "nothingToReturn" },
          { guard: "requestedDetails", target: "details" },
          { guard: "requestedSignature", target: "signing" },
          { target: "summary" },
        ],
      },
      blocked: {
        description:
          "Incomplete orders must be successfully resubmitted by end of day. Click the try again button to resubmit.",
        on: {
          QUEUE_CHANGED: { target: "opening", actions: "updateFollowed", description: "The stored orders were resubmitted." },
          DAY_CHANGED: { target: "opening", actions: "updateFollowed", description: "The day was refreshed." },
        },
      },
      nothingToReturn: {
        description: "No undelivered item, cash or check is to go back to this pharmacy.",
        on: {
          DAY_CHANGED: { target: "opening", actions: "updateFollowed", description: "The day was refreshed." },
          QUEUE_CHANGED: { target: "opening", actions: "updateFollowed", description: "Orders wait on the device again: the alert." },
        },
      },
      summary: {
        description: "/reconcile: the items, cash and check to return, with their totals in US dollars.",
        on: {
          VIEW_DETAILS: { guard: "kindHasLines", target: "details", actions: "requestDetails", description: "The lines of orders, cash or check." },
          SIGN: { target: "signing", actions: "requestSignature", description: "On to the pharmacy staff signature ('sign for items')." },
          GO_TO: { guard: "viewAllowed", target: "opening", actions: "requestView", description: "A deep link." },
          DAY_CHANGED: { target: "opening", actions: "updateFollowed", description: "The day changed: the summary is computed again." },
          QUEUE_CHANGED: { target: "opening", actions: "updateFollowed", description: "Orders wait on the device, or no longer: the alert or the summary." },
          SCAN: { target: "scanningBags", description: "Scan: tick off each bag by its label as it goes back over the counter." },
        },
      },
      scanningBags: {
        description: "/reconcile with the camera open above the summary: each bag's label read ticks it off.",
        invoke: {
          id: "labelScanner",
          src: "labelScanner",
          input: ({ context, self }) => ({ bags: bagsToReturn(context.orders, context.summary), reportTo: self }),
          onDone: { target: "summary", description: "Stop scanning: the camera closes, the ticks stay." },
        },
        on: {
          LABEL_MATCHED: { actions: "tickBag", description: "A bag going back here: ticked off." },
          VIEW_DETAILS: { guard: "kindHasLines", target: "details", actions: "requestDetails", description: "The lines of orders, cash or check." },
          SIGN: { target: "signing", actions: "requestSignature", description: "On to the pharmacy staff signature ('sign for items')." },
          GO_TO: { guard: "viewAllowed", target: "opening", actions: "requestView", description: "A deep link." },
          DAY_CHANGED: [
            {
              guard: "changeKeepsSummary",
              actions: ["updateFollowed", "tellScannerBags"],
              description: "The day changed: the summary, the ticks and the labels the camera looks for are computed again; the camera stays open.",
            },
            { target: "opening", actions: "updateFollowed", description: "The day changed and leaves no summary: nothing to return." },
          ],
          QUEUE_CHANGED: [
            { guard: "changeKeepsSummary", actions: "updateFollowed", description: "Nothing waits on the device: the camera stays open." },
            { target: "opening", actions: "updateFollowed", description: "Orders wait on the device again: the alert." },
          ],
        },
      },
      details: {
        description: "/reconcile_details/{orders|cash|check}: each line with its order and amount, and the total.",
        on: {
          BACK: { target: "summary", actions: "requestSummary", description: "Back to the returns summary." },
          VIEW_DETAILS: { guard: "kindHasLines", target: "details", reenter: true, actions: "requestDetails", description: "Another kind's lines." },
          SIGN: { target: "signing", actions: "requestSignature", description: "On to the pharmacy staff signature." },
          GO_TO: { guard: "viewAllowed", target: "opening", actions: "requestView", description: "A deep link." },
          DAY_CHANGED: { target: "opening", actions: "updateFollowed", description: "The day changed: the lines are computed again." },
          QUEUE_CHANGED: { target: "opening", actions: "updateFollowed", description: "Orders wait on the device, or no longer: the alert or the lines." },
        },
      },
      signing: {
        description: "/reconcile_signature, 'sign for items': first name, last name and signature of the pharmacy staff.",
        initial: "editing",
        states: {
          editing: {
            on: {
              STAFF_CHANGED: { actions: "setStaff", description: "First name or last name typed (at most 32 characters)." },
              SIGNATURE_CHANGED: { actions: "setSignature", description: "The staff member signed on the pad, or it was cleared." },
              SUBMIT: { guard: "signatureComplete", target: "submitting", description: "Submit, once first name, last name and signature are there." },
              BACK: { target: "#returns.summary", actions: "requestSummary", description: "Back to the returns summary." },
              GO_TO: { guard: "viewAllowed", target: "#returns.opening", actions: "requestView", description: "A deep link." },
              DAY_CHANGED: { target: "#returns.opening", actions: "updateFollowed", description: "The day changed: what goes back is computed again; what was entered stays." },
              QUEUE_CHANGED: { target: "#returns.opening", actions: "updateFollowed", description: "Orders wait on the device, or no longer: what was entered stays." },
            },
          },
          submitting: {
            description: "POST /courier/pharmacies/{id}/returns: the staff wait while it is recorded.",
            entry: "clearError",
            invoke: {
              id: "submitReturn",
              src: "submitReturn",
              input: ({ context }) => returnSubmissionOf(context),
              onDone: { target: "#returns.done", actions: { type: "storeResult", params: ({ event }) => event.output } },
              onError: {
                target: "editing",
                actions: { type: "showFailure", params: ({ event }: { event: { error: unknown } }) => event.error },
                description: "Spec §8 text (no internet, server error, the server's refusal); everything entered stays for another try.",
              },
            },
          },
        },
      },
      done: {
        type: "final",
        entry: "reportReturned",
        description: "Returned: the pharmacy shows in 'Completed' on /pharmacies.",
      },
    },
    output: ({ context }) => ({ result: context.result!, orders: context.returnedOrders }),
  });
