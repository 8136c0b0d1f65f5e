import { eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { statusByName } from "../../domain/vocabulary.ts";
import type { Db } from "../../server/db/client.ts";
import { orders, payments, pharmacies } from "../../server/db/schema.ts";
import { HttpError } from "../../server/http/errors.ts";
import type { AuthorizeRequest, PaymentGateway } from "../../server/payments/gateway.ts";
import { SandboxGateway } from "../../server/payments/sandbox-gateway.ts";
import { recordDelivery } from "../../server/services/deliveries.ts";
import { sweepAbandonedAuthorizations } from "../../server/services/payment-recovery.ts";
import { authorizeCardPayment, type AuthorizationStep, type PaymentServiceDeps } from "../../server/services/payments.ts";
import { describeApi, TEST_DAY, type ApiClient } from "../support/api-harness.ts";
import { OCCURRED } from "../support/instants.ts";

/**
 * Issue 14: card authorization writes its payments row before it calls the
 * gateway, and releases any hold whose row cannot be completed. Each test
 * kills an API process at one step of the path (its database and gateway
 * handles go dead, its open transaction rolls back, nothing of it runs
 * afterwards), then another process runs the recovery sweep and the courier
 * tries again.
 */

const VISA = "4111111111111111";

class Killed extends Error {
  override readonly name = "Killed";
}

/** The gateway as the outside world: it outlives any of our processes. */
class CountingGateway extends SandboxGateway {
  authorizeCalls = 0;
  override async authorize(request: AuthorizeRequest) {
    this.authorizeCalls++;
    return super.authorize(request);
  }
}

/** One API process: its handles on the shared database and gateway stop working when it is killed. */
function apiProcess(db: Db, gateway: PaymentGateway) {
  let dead = false;
  const handle = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(object, property) {
        if (dead) throw new Killed("this process was killed");
        const value: unknown = Reflect.get(object, property, object);
        return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  const deps: PaymentServiceDeps = { db: handle(db), gateway: handle(gateway), log: { error: () => undefined } };
  return {
    deps,
    /** The checkpoint that kills this process at one step. */
    killAt: (step: AuthorizationStep) => (at: AuthorizationStep) => {
      if (at !== step) return;
      dead = true;
      throw new Killed(`killed after ${at}`);
    },
  };
}

describeApi("card authorization killed at each step leaves no hold without its row", (api) => {
  const db = () => api().database.db;

  async function newOrder(client: ApiClient): Promise<number> {
    const [market] = await db().select().from(pharmacies).where(eq(pharmacies.name, "Market Street Apothecary"));
    const [row] = await db()
      .insert(orders)
      .values({
        courierId: client.courierId,
        pharmacyId: market!.id,
        serviceDate: "2026-11-21",
        statusId: statusByName("picked_up").id,
        patientFirstName: "Test",
        patientLastName: "Patient",
        recipientDescription: "Test Patient",
        streetAddress: "1 Test St",
        city: "Philadelphia",
        stateAbbreviation: "PA",
        zipcode: "19103",
        copayCents: 800,
        otherItemsAmountDueCents: 0,
      })
      .returning({ id: orders.id });
    return row!.id;
  }

  function nonce(gateway: SandboxGateway): string {
    const outcome = gateway.tokenize({ number: VISA, cvv: "123", expirationDate: "12/39" });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.nonce;
  }
  const card = (gateway: SandboxGateway) => ({ payment_type: "credit_card" as const, token: nonce(gateway), total: "8.00" });

  /** Every hold the gateway still has is this order's one completed authorization, and the order says so. */
  async function expectConsistent(gateway: SandboxGateway, orderId: number) {
    const rows = await db().select().from(payments).where(eq(payments.orderId, orderId));
    const authorized = rows.filter((row) => row.status === "authorized");
    const held = gateway.heldTransactions();
    expect(held.length, "never two holds").toBeLessThanOrEqual(1);
    expect(held, "no hold without a completed row").toEqual(authorized.map((row) => row.transactionId));
    expect(rows.filter((row) => row.status === "pending"), "no attempt left pending after the sweep").toEqual([]);
    const [order] = await db().select().from(orders).where(eq(orders.id, orderId));
    expect(order!.paymentAuthorized).toBe(authorized.length === 1);
    if (authorized.length === 1) expect((order!.chargeData as { transaction_id?: string }).transaction_id).toBe(authorized[0]!.transactionId);
  }

  it.each<[AuthorizationStep, { gatewayCalled: boolean }]>([
    ["row_written", { gatewayCalled: false }],
    ["row_committed", { gatewayCalled: false }],
    ["gateway_answered", { gatewayCalled: true }],
    ["row_completed", { gatewayCalled: true }],
    ["attempt_completed", { gatewayCalled: true }],
  ])("killed after %s: the sweep leaves the gateway and our rows agreeing, and the courier can pay", async (step, expected) => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const gateway = new CountingGateway();

    const doomed = apiProcess(db(), gateway);
    await expect(
      authorizeCardPayment({ ...doomed.deps, checkpoint: doomed.killAt(step) }, client.courierId, orderId, card(gateway)),
    ).rejects.toThrow(`killed after ${step}`);
    expect(gateway.authorizeCalls).toBe(expected.gatewayCalled ? 1 : 0);
    expect(gateway.heldTransactions().length).toBeLessThanOrEqual(1);

    // Two processes sweep at once: each abandoned attempt is handled once.
    const survivor = apiProcess(db(), gateway);
    const other = apiProcess(db(), gateway);
    await Promise.all([
      sweepAbandonedAuthorizations(survivor.deps, { staleAfterMs: 0 }),
      sweepAbandonedAuthorizations(other.deps, { staleAfterMs: 0 }),
    ]);
    await expectConsistent(gateway, orderId);

    // The courier tries again: one authorization stands, whatever happened before.
    const again = await authorizeCardPayment(survivor.deps, client.courierId, orderId, card(gateway));
    await expectConsistent(gateway, orderId);
    expect(gateway.heldTransactions()).toEqual([again.transaction_id]);
    const statuses = (await db().select().from(payments).where(eq(payments.orderId, orderId))).map((row) => row.status);
    expect(statuses.filter((status) => status === "authorized")).toHaveLength(1);
  });

  it("a second attempt while the first is still with the gateway is refused in words, and takes no hold", async () => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const gateway = new CountingGateway();
    const doomed = apiProcess(db(), gateway);
    await expect(
      authorizeCardPayment({ ...doomed.deps, checkpoint: doomed.killAt("row_committed") }, client.courierId, orderId, card(gateway)),
    ).rejects.toThrow(Killed);

    const survivor = apiProcess(db(), gateway);
    const refusal = await authorizeCardPayment({ ...survivor.deps, pendingWaitMs: 300 }, client.courierId, orderId, card(gateway)).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(HttpError);
    expect(refusal).toMatchObject({
      statusCode: 409,
      code: "payment_in_progress",
      message: `The card payment for order ${orderId} is still being authorized. Please try again in a moment.`,
    });
    expect(gateway.authorizeCalls).toBe(0);

    // A fresh attempt is no crash: the sweep's default patience leaves it alone.
    await sweepAbandonedAuthorizations(survivor.deps);
    const [row] = await db().select().from(payments).where(eq(payments.orderId, orderId));
    expect(row!.status).toBe("pending");
  });

  it("a slow attempt the sweep took over releases its own hold instead of completing", async () => {
    const client = await api().login();
    const orderId = await newOrder(client);
    const gateway = new CountingGateway();
    const slow = apiProcess(db(), gateway);
    const sweeper = apiProcess(db(), gateway);
    // The sweep runs while the slow process holds the gateway's answer but has not recorded it.
    const checkpoint = async (at: AuthorizationStep) => {
      if (at === "gateway_answered") await sweepAbandonedAuthorizations(sweeper.deps, { staleAfterMs: 0 });
    };
    const refusal = await authorizeCardPayment({ ...slow.deps, checkpoint }, client.courierId, orderId, card(gateway)).catch(
      (error: unknown) => error,
    );
    expect(refusal).toMatchObject({ statusCode: 409, code: "payment_abandoned" });
    await expectConsistent(gateway, orderId);
    expect(gateway.heldTransactions()).toEqual([]);

    const again = await authorizeCardPayment(sweeper.deps, client.courierId, orderId, card(gateway));
    expect(gateway.heldTransactions()).toEqual([again.transaction_id]);
    await expectConsistent(gateway, orderId);
  });

  it("a delivery recorded by a process killed before it settled the card: the sweep releases or captures it", async () => {
    const client = await api().login();
    const gateway = new CountingGateway();
    const survivor = apiProcess(db(), gateway);

    // A failed attempt recorded, its process killed before the void: the hold is released late.
    const attempted = await newOrder(client);
    const first = await authorizeCardPayment(survivor.deps, client.courierId, attempted, card(gateway));
    await recordDelivery(db(), client.courierId, { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [attempted] }, TEST_DAY);
    // Not yet: the route settles it itself unless its process died, and the sweep waits that long.
    await sweepAbandonedAuthorizations(survivor.deps);
    expect(gateway.heldTransactions()).toEqual([first.transaction_id]);
    const late = await sweepAbandonedAuthorizations(survivor.deps, { staleAfterMs: 0 });
    expect(late.settledLate).toBe(1);
    expect(gateway.heldTransactions()).toEqual([]);
    const [voided] = await db().select().from(payments).where(eq(payments.orderId, attempted));
    expect(voided!.status).toBe("voided");
    expect((await db().select().from(orders).where(eq(orders.id, attempted)))[0]!.paymentAuthorized).toBe(false);

    // A delivered order whose capture never ran: captured late, once.
    const delivered = await newOrder(client);
    const second = await authorizeCardPayment(survivor.deps, client.courierId, delivered, card(gateway));
    await db().update(orders).set({ statusId: statusByName("delivered").id, updatedAt: new Date() }).where(eq(orders.id, delivered));
    expect((await sweepAbandonedAuthorizations(survivor.deps, { staleAfterMs: 0 })).settledLate).toBe(1);
    expect(gateway.heldTransactions()).toEqual([]);
    const [settled] = await db().select().from(payments).where(eq(payments.orderId, delivered));
    expect(settled).toMatchObject({ status: "settled", transactionId: second.transaction_id });
    expect((await sweepAbandonedAuthorizations(survivor.deps, { staleAfterMs: 0 })).settledLate).toBe(0);
  });
});
