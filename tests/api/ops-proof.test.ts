import { and, eq } from "drizzle-orm";
import { expect, it } from "vitest";
import { orders, pharmacyVisits } from "../../server/db/schema.ts";
import { completion, OCCURRED, returnForm, SIGNATURE_SVG, type courierActions, type CourierSession } from "../support/courier-actions.ts";
import { describeOps, orderBody } from "../support/ops-harness.ts";
import { courierAtFreshPharmacy, custodyOf as custodyThrough, proofOf as proofThrough, returnsOf } from "../support/proof-fixtures.ts";
import { freshOrder } from "../support/security-fixtures.ts";
import { TEST_DAY } from "../support/api-harness.ts";

/**
 * Proof of delivery, chain of custody and return manifests on the
 * operations API, for orders taken through the courier API from check-in to
 * the door and back: delivered with ID and DOB, failed then returned,
 * grouped, and card-paid. A pharmacy key sees its own pharmacy's only.
 */

describeOps("proof of delivery and chain of custody (/api/ops/v1)", (ctx) => {
  const db = () => ctx().database.db;
  let courier: CourierSession;
  let act: ReturnType<typeof courierActions>;
  let pharmacyId: number;
  let ids: Record<"delivered" | "failed" | "groupA" | "groupB" | "card", number>;

  const proofOf = (id: number, key?: string) => proofThrough(ctx(), id, key);
  const custodyOf = (id: number) => custodyThrough(ctx(), id);

  /** A day at a pharmacy of its own, driven through the courier API. */
  it("sets up a day: check-in, copay asserted, pickups, a delivery with ID, a failure, a group, a card payment, a return", async () => {
    ({ courier, act, pharmacyId, ids } = await courierAtFreshPharmacy(ctx(), "Proof Test Pharmacy", { delivered: 0, failed: 0, groupA: 0, groupB: 0, card: 4000 }));
    const [visit] = await db().select().from(pharmacyVisits).where(and(eq(pharmacyVisits.pharmacyId, pharmacyId), eq(pharmacyVisits.serviceDate, TEST_DAY)));
    await db().update(pharmacyVisits).set({ confirmed: null }).where(eq(pharmacyVisits.id, visit!.id));
    // A date of birth on file: only a date the courier was shown can be verified (issue 17).
    await db().update(orders).set({ collectIdentification: true, controlledSubstance: true, signatureRequired: true, patientDateOfBirth: "1948-03-14" }).where(eq(orders.id, ids.delivered));
    const [a] = await db().select().from(orders).where(eq(orders.id, ids.groupA));
    await db().update(orders).set({ streetAddress: a!.streetAddress, zipcode: a!.zipcode }).where(eq(orders.id, ids.groupB));

    // The courier confirms the visit once the day's orders are theirs (an answer given before an order existed is not its custody).
    await act.confirmVisit(visit!.id);
    await act.assertCopay(ids.delivered, "0.00");
    for (const id of Object.values(ids)) await act.pickUp(id);

    await act.deliver(
      completion([ids.delivered], {
        relationship_id: 2,
        recipient_first_name: "Marta",
        recipient_last_name: "Kowalski",
        other_relationship_description: "Daughter",
        signed_by: "Marta Kowalski",
        dob_verified: true,
        identification_state: "PA",
        identification_type: "driver",
        identification_number: "D1234567",
        identification_expiration: "2030-12-31",
        latitude: 39.9389,
        longitude: -75.1575,
      }),
    );
    await act.fail([ids.failed], "Patient Not Home", "Rang twice, no answer", { latitude: 39.95, longitude: -75.16 });
    await act.deliver(completion([ids.groupA, ids.groupB], { recipient_first_name: "Fixture", recipient_last_name: "Patient", signed_by: "Fixture Patient" }));
    const transactionId = await act.authorize(ids.card, await act.cardNonce("4111111111111111"), "40.00");
    await act.deliver(completion([ids.card], { order_payment: { payment_type: "credit_card", amount: "40.00", new_copay: null, transaction_id: transactionId } }));
    await act.returnTo(pharmacyId, returnForm(courier.courierId, pharmacyId, { latitude: 39.95, longitude: -75.17, returns: [{ type: "item", amount: "0.00", order_id: ids.failed }] }));
  });

  it("a delivered order's proof: recipient, relationship, signature link, DOB, ID's last 4 only, time and place", async () => {
    const proof = await proofOf(ids.delivered);
    expect(proof).toMatchObject({
      order: { id: ids.delivered, status: "delivered", service_date: TEST_DAY },
      pharmacy: { id: pharmacyId, name: "Proof Test Pharmacy" },
      courier: { id: courier.courierId },
      outcome: "delivered",
      failure: null,
      recipient: { first_name: "Marta", last_name: "Kowalski", relationship: "Other", other_relationship_description: "Daughter" },
      signed_by: "Marta Kowalski",
      signature_refusal_reason: null,
      dob_verified: true,
      identification: { type: "driver", state: "PA", number_last4: "4567", expiration: "2030-12-31" },
      payment: null,
      client_occurred_at: OCCURRED,
      latitude: 39.9389,
      longitude: -75.1575,
      grouped_order_ids: [],
      signature_url: `/api/ops/v1/orders/${ids.delivered}/proof/signature.svg`,
      returned: null,
    });
    expect(Date.parse(proof.received_at)).toBeGreaterThan(Date.parse(OCCURRED));
    expect(JSON.stringify(proof)).not.toContain("D1234567");
    expect(JSON.stringify(proof)).not.toContain("D123");
  });

  it("serves the signature inert: SVG type, nosniff, a sandboxing CSP that allows nothing to load or run", async () => {
    const response = await ctx().ops("GET", `/api/ops/v1/orders/${ids.delivered}/proof/signature.svg`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe("image/svg+xml; charset=utf-8");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    const csp = String(response.headers["content-security-policy"]);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("sandbox");
    expect(csp).not.toMatch(/script-src(?! 'none')/);
    expect(response.body).toBe(SIGNATURE_SVG);
    // As docs/operations.md says: every /api/ answer is no-store (server/http/security-headers.ts has the last word).
    expect(response.headers["cache-control"]).toBe("no-store");
    // No signature (a failed attempt) is "not found".
    expect((await ctx().ops("GET", `/api/ops/v1/orders/${ids.failed}/proof/signature.svg`)).statusCode).toBe(404);
  });

  it("a failed order that came back: the reason and notes, then the staff who took it back", async () => {
    const proof = await proofOf(ids.failed);
    expect(proof).toMatchObject({
      outcome: "returned_to_pharmacy",
      failure: { reason: "Patient Not Home", notes: "Rang twice, no answer" },
      recipient: null,
      signed_by: null,
      payment: null,
      identification: null,
      client_occurred_at: OCCURRED,
      latitude: 39.95,
      longitude: -75.16,
      signature_url: null,
      returned: { staff_first_name: "Priya", staff_last_name: "Raman" },
    });
    const custody = await custodyOf(ids.failed);
    expect(custody.map((entry) => entry.event)).toEqual(["visit_confirmed", "picked_up", "delivery_attempted", "returned"]);
    const attempt = custody.find((entry) => entry.event === "delivery_attempted")!;
    expect(attempt).toMatchObject({
      actor: { type: "courier", id: courier.courierId, name: "Dana Whitfield" },
      client_occurred_at: OCCURRED,
      latitude: 39.95,
      longitude: -75.16,
      details: { attempt: 1, failure_reason: "Patient Not Home", notes: "Rang twice, no answer" },
    });
    const returned = custody.find((entry) => entry.event === "returned")!;
    expect(returned).toMatchObject({
      actor: { type: "staff", name: "Priya Raman" },
      latitude: 39.95,
      longitude: -75.17,
      details: { staff_first_name: "Priya", staff_last_name: "Raman", courier_name: "Dana Whitfield" },
    });
    const times = custody.map((entry) => Date.parse(entry.at));
    expect([...times].sort((x, y) => x - y)).toEqual(times);
  });

  it("a delivered order's custody: visit confirmed, verified (copay asserted), picked up, delivered with position", async () => {
    const custody = await custodyOf(ids.delivered);
    expect(custody.map((entry) => entry.event)).toEqual(["visit_confirmed", "verified", "picked_up", "delivered"]);
    expect(custody[1]!.details).toEqual({ copay_asserted: true });
    expect(custody[2]).toMatchObject({ actor: { type: "courier", name: "Dana Whitfield" }, client_occurred_at: OCCURRED });
    expect(custody[3]).toMatchObject({ latitude: 39.9389, longitude: -75.1575, client_occurred_at: OCCURRED });
  });

  it("grouped orders name each other", async () => {
    expect((await proofOf(ids.groupA)).grouped_order_ids).toEqual([ids.groupB]);
    const b = await proofOf(ids.groupB);
    expect(b.grouped_order_ids).toEqual([ids.groupA]);
    expect(b.recipient).toMatchObject({ first_name: "Fixture", last_name: "Patient", relationship: "Patient" });
  });

  it("a card-paid order shows the amount and the card's last 4 as the gateway reports them", async () => {
    const proof = await proofOf(ids.card);
    expect(proof.payment).toEqual({ type: "credit_card", amount: "40.00", card_last4: "1111" });
  });

  it("the day's return manifest, and its PDF", async () => {
    const returns = await returnsOf(ctx(), pharmacyId);
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({
      pharmacy: { id: pharmacyId },
      staff_first_name: "Priya",
      staff_last_name: "Raman",
      items: [{ order_id: ids.failed }],
      cash: [],
      checks: [],
      cash_total: "0.00",
      check_total: "0.00",
    });
    const pdf = await ctx().ops("GET", returns[0]!.pdf_url);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await ctx().ops("GET", `/api/ops/v1/returns?pharmacy_id=${pharmacyId}&service_date=2026-02-30`)).statusCode).toBe(400);
  });

  it("proof.pdf is a PDF", async () => {
    const pdf = await ctx().ops("GET", `/api/ops/v1/orders/${ids.delivered}/proof.pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("a pharmacy key reads its own pharmacy's proof; another pharmacy's is 404, like a missing order", async () => {
    const own = await ctx().ops("POST", "/api/ops/v1/keys", { role: "pharmacy", pharmacy_id: pharmacyId, name: "Proof Test" });
    expect(own.statusCode, own.body).toBe(201);
    const ownKey = own.json().key as string;
    const [other] = await db().select({ id: orders.id }).from(orders).where(eq(orders.patientLastName, "Delgado"));
    expect((await proofOf(ids.delivered, ownKey)).order.id).toBe(ids.delivered);
    for (const path of ["proof", "proof.pdf", "proof/signature.svg", "custody"]) {
      const response = await ctx().ops("GET", `/api/ops/v1/orders/${other!.id}/${path}`, undefined, ownKey);
      expect(response.statusCode, path).toBe(404);
    }
    expect((await ctx().ops("GET", "/api/ops/v1/orders/999999/proof", undefined, ownKey)).statusCode).toBe(404);
    const returns = await ctx().ops("GET", `/api/ops/v1/returns?pharmacy_id=${pharmacyId + 1000}&service_date=${TEST_DAY}`, undefined, ownKey);
    expect(returns.statusCode).toBe(404);
  });

  it("an order made and assigned through the operations API: created and assigned by the key, to the courier, then picked up", async () => {
    const created = await ctx().ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, "CUSTODY-1"));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().order.id as number;
    const assigned = await ctx().ops("POST", "/api/ops/v1/assignments", { courier_id: courier.courierId, service_date: TEST_DAY, order_ids: [id] });
    expect(assigned.statusCode, assigned.body).toBe(200);
    await act.pickUp(id);
    const custody = await custodyOf(id);
    // The visit was confirmed before this order was made: not part of its chain.
    expect(custody.map((entry) => entry.event)).toEqual(["created", "assigned", "picked_up"]);
    expect(custody[0]!.actor).toMatchObject({ type: "key" });
    expect(custody[1]).toMatchObject({ actor: { type: "key" }, details: { courier_id: courier.courierId, courier_name: "Dana Whitfield" } });
    expect(custody[2]!.actor).toMatchObject({ type: "courier", id: courier.courierId });
  });

  it("an order not yet at the door has no proof (409); no key is 401", async () => {
    const id = await freshOrder(db(), { courierId: courier.courierId, pharmacyId, status: "submitted_to_courier" });
    expect((await ctx().ops("GET", `/api/ops/v1/orders/${id}/proof`)).statusCode).toBe(409);
    expect((await ctx().ops("GET", `/api/ops/v1/orders/${id}/proof`, undefined, null)).statusCode).toBe(401);
  });
});
