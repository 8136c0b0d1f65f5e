import { waitFor } from "@testing-library/react";
import { vi } from "vitest";

/**
 * What the delivery UI tests put in place of the API adapters and
 * signature_pad (vi.mock factories import this module, which imports nothing
 * of the app, so the mocks exist before the app's modules load).
 */

export const SIGNATURE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200"><path d="M 1,1 C 2,2 3,3 4,4" stroke="black" fill="none"/></svg>';

// ---------------------------------------------------------------- adapters the test settles

export interface PendingCall {
  actor: string;
  input: unknown;
  options: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

export const calls: PendingCall[] = [];

function pendingCall(actor: string) {
  return (input: unknown, options?: unknown) =>
    new Promise((resolve, reject) => {
      calls.push({ actor, input, options, resolve, reject });
    });
}

/** What the test files' vi.mock factories return for src/api/deliveries.ts and src/api/payments.ts. */
export const deliveryMocks = {
  deliveries: {
    submitFailure: vi.fn(pendingCall("submitFailure")),
    submitRecipient: vi.fn(pendingCall("submitRecipient")),
    submitDelivery: vi.fn(pendingCall("submitDelivery")),
  },
  payments: {
    fetchClientToken: vi.fn(async () => ({ client_token: "sandbox-client-token", gateway: "sandbox" as const })),
    postJson: vi.fn(async () => ({ nonce: "tokencc_sb_test", details: { card_type: "Visa", last_four: "1111" } })),
    putJson: vi.fn(async () => ({})),
    authorizeOrderCard: vi.fn(pendingCall("authorizeCard")),
    saveChargeData: vi.fn(async () => ({})),
  },
};

/** The call the flow made of `actor`, once it has made it. */
export async function callOf(actor: string): Promise<PendingCall> {
  let call: PendingCall | undefined;
  await waitFor(() => {
    call = calls.find((candidate) => candidate.actor === actor);
    if (!call) throw new Error(`${actor} was not called`);
  });
  calls.splice(calls.indexOf(call!), 1);
  return call!;
}

/** signature_pad without a canvas (jsdom has none): a pointerup on the canvas is a stroke. */
export class FakeSignaturePad {
  private strokes: object[] = [];
  private listeners = new Set<() => void>();
  private readonly stroke = () => {
    this.strokes.push({});
    this.listeners.forEach((listener) => listener());
  };
  constructor(private readonly canvas: HTMLCanvasElement) {
    canvas.addEventListener("pointerup", this.stroke);
    canvas.dataset.padReady = "true";
  }
  addEventListener(type: string, listener: () => void) {
    if (type === "endStroke") this.listeners.add(listener);
  }
  isEmpty() {
    return this.strokes.length === 0;
  }
  toSVG() {
    return SIGNATURE_SVG;
  }
  clear() {
    this.strokes = [];
  }
  toData() {
    return this.strokes;
  }
  fromData(strokes: object[]) {
    this.strokes = strokes;
  }
  off() {
    this.canvas.removeEventListener("pointerup", this.stroke);
    this.listeners.clear();
  }
}


/** The device's stored offline orders as the list sees them (src/shell/offline-queue.ts is replaced in the list's test). */
export const offlineEntries: { id: number; orderIds: number[] }[] = [];

export const offlineQueueMock = {
  useOfflineQueue: <T,>(selector: (snapshot: { context: { entries: typeof offlineEntries } }) => T) => selector({ context: { entries: offlineEntries } }),
  useHasIncompleteOrders: () => offlineEntries.length > 0,
  enqueueOffline: vi.fn(),
};
