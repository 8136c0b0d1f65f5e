import { count, eq, inArray } from "drizzle-orm";
import { expect, it } from "vitest";
import { API_MEDIA_TYPE } from "../../domain/contract/common.ts";
import { deliveryFormEntries } from "../../domain/contract/deliveries.ts";
import { toFormData, type FormValue } from "../../domain/contract/form-fields.ts";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { returnFormEntries, type ReturnSubmission, type WireReturnLine } from "../../domain/contract/returns.ts";
import { isPharmacyComplete, pharmacySections } from "../../domain/pharmacy-list.ts";
import { returnSummary } from "../../domain/returns.ts";
import { statusByName, type OrderStatusName } from "../../domain/vocabulary.ts";
import {
  auditEvents,
  deliveries,
  deliveryOrders,
  orders,
  pharmacies,
  returnLines,
  returnSignatures,
} from "../../server/db/schema.ts";
import { describeApi, type ApiClient } from "../support/api-harness.ts";
import { OCCURRED } from "../support/instants.ts";

const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 354 200" width="354" height="200">' +
  '<path d="M 10.000,20.000 C 11.000,21.000 12.500,22.000 14.000,23.000" stroke-width="2.250" stroke="black" fill="none" stroke-linecap="round"></path></svg>';
const SCRIPTED_SVG = '<svg xmlns="http://www.w3.org/2000/svg"><path d="M 1 1 L 2 2" stroke="black"/><script>alert(1)</script></svg>';

describeApi("POST /api/courier/pharmacies/:id/returns", (api) => {
  const db = () => api().database.db;

  async function pharmacyId(name: string) {
    const [row] = await db().select().from(pharmacies).where(eq(pharmacies.name, name));
    return row!.id;
  }
  async function orderId(lastName: string) {
    const [row] = await db().select().from(orders).where(eq(orders.patientLastName, lastName));
    return row!.id;
  }
  async function setOrder(lastName: string, status: OrderStatusName, changes: Partial<typeof orders.$inferInsert> = {}) {
    const id = await orderId(lastName);
    await db().update(orders).set({ statusId: statusByName(status).id, ...changes }).where(eq(orders.id, id));
    return id;
  }
  async function day(client: ApiClient) {
    return ItineraryResponse.parse((await client.get("/api/courier/itinerary")).json());
  }

  async function postForm(client: ApiClient, url: string, entries: [string, FormValue][], csrf: "field" | "header" | "none" = "field", headers: Record<string, string> = {}) {
    const request = new Request("http://localhost/", {
      method: "POST",
      body: toFormData(csrf === "field" ? [["_csrf_token", client.csrfToken], ...entries] : entries),
    });
    return api().app.inject({
      method: "POST",
      url,
      headers: {
        accept: API_MEDIA_TYPE,
        cookie: client.cookie,
        "content-type": request.headers.get("content-type")!,
        ...(csrf === "header" ? { "x-csrf-token": client.csrfToken } : {}),
        ...headers,
      },
      payload: Buffer.from(await request.arrayBuffer()),
    });
  }
  const postReturn = (client: ApiClient, pharmacy: number, submission: ReturnSubmission, csrf?: "field" | "header" | "none", headers?: Record<string, string>) =>
    postForm(client, `/api/courier/pharmacies/${pharmacy}/returns`, returnFormEntries(submission), csrf, headers);

  /** The submission the app would send for what the day shows at the pharmacy. */
  async function submissionFor(client: ApiClient, pharmacy: number, overrides: Partial<ReturnSubmission> = {}): Promise<ReturnSubmission> {
    const summary = returnSummary((await day(client)).orders, pharmacy);
    const money = (cents: number) => (cents / 100).toFixed(2);
    return {
      recipient_first_name: "Priya",
      recipient_last_name: "Raman",
      signature_svg: SVG,
      courier_id: client.courierId,
      pharmacy_id: pharmacy,
      cash_collected: money(summary.cashCollected),
      check_collected: money(summary.checkCollected),
      latitude: null,
      longitude: null,
      returns: summary.lines.map((line) => ({ type: line.type, amount: money(line.amount), order_id: line.order_id })),
      ...overrides,
    };
  }

  /** Logins and views of patient details are audited too; only status changes matter here. */
  const statusChanges = async () => (await db().select({ n: count() }).from(auditEvents).where(eq(auditEvents.action, "status_change")))[0]!.n;

  /** Everything a refused request could have half-written. */
  async function databaseState() {
    const tally = async (table: typeof returnSignatures | typeof returnLines | typeof deliveries | typeof deliveryOrders) =>
      (await db().select({ n: count() }).from(table))[0]!.n;
    return {
      signatures: await tally(returnSignatures),
      lines: await tally(returnLines),
      deliveries: await tally(deliveries),
      deliveryOrders: await tally(deliveryOrders),
      statusChanges: await statusChanges(),
      orders: await db().select().from(orders).orderBy(orders.id),
    };
  }
  async function expectRefusedUnchanged(request: () => Promise<{ statusCode: number; json(): unknown }>, status: number) {
    const before = await databaseState();
    const response = await request();
    expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
    expect(await databaseState()).toEqual(before);
    return response.json() as { error: string; message: string };
  }

  /**
   * Northside, set up as a day ends: Coleman delivered with a $12.50 cash
   * copay (through the delivery endpoint), Diaz delivered paid by a $24.00
   * check, Evans attempted (through the failure endpoint), Freeman picked up
   * and never attempted, carrying a $5.00 delivery fee.
   */
  async function northsideDay(client: ApiClient) {
    const northside = await pharmacyId("Northside Family Drugs");
    const coleman = await setOrder("Coleman", "picked_up");
    const cash = await postForm(
      client,
      "/api/courier/deliveries",
      deliveryFormEntries({
        order_ids: [coleman],
        signature_svg: SVG,
        body: null,
        signed_by: "Beatrice Coleman",
        dob_verified: true,
        recipient_called_at: null,
        client_occurred_at: OCCURRED,
        relationship_id: 1,
        recipient_first_name: null,
        recipient_last_name: null,
        other_relationship_description: null,
        survey: { have_you_left_prescription_at_pharmacy: null, use_delivery_service_again: null, refill_reminder_opt_in: null },
        order_payment: { payment_type: "cash", amount: "12.50", new_copay: null, transaction_id: null },
        identification_state: null,
        identification_type: null,
        identification_number: null,
        identification_expiration: null,
        signature_refusal_reason: null,
      }),
    );
    expect(cash.statusCode, cash.body).toBe(200);
    const diaz = await setOrder("Diaz", "delivered", { copayCents: 2000, deliveryFeeCents: 300, otherItemsAmountDueCents: 100, paymentCollected: true, paymentType: "check" });
    const evans = await setOrder("Evans", "picked_up");
    const failed = await client.post("/api/courier/deliveries", { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [evans] } });
    expect(failed.statusCode, failed.body).toBe(200);
    const freeman = await setOrder("Freeman", "picked_up", { deliveryFeeCents: 500 });
    return { northside, coleman, diaz, evans, freeman };
  }

  let setup: Awaited<ReturnType<typeof northsideDay>>;

  it("the day at Northside: what goes back is computed by the shared rule", async () => {
    const client = await api().login();
    setup = await northsideDay(client);
    const submission = await submissionFor(client, setup.northside);
    expect(submission).toMatchObject({ cash_collected: "12.50", check_collected: "24.00" });
    expect(submission.returns).toEqual<WireReturnLine[]>([
      { type: "item", amount: "6.50", order_id: setup.evans },
      { type: "item", amount: "5.00", order_id: setup.freeman },
      { type: "cash", amount: "12.50", order_id: setup.coleman },
      { type: "check", amount: "24.00", order_id: setup.diaz },
    ]);
    expect(pharmacySections((await day(client)).orders, setup.northside)).not.toContain("completed");
  });

  // ---------------------------------------------------------------- refusals, each leaving the database as it was

  it("refuses without the CSRF token (403)", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const body = await expectRefusedUnchanged(() => postReturn(client, setup.northside, submission, "none"), 403);
    expect(body.error).toBe("csrf");
  });

  it("refuses another courier's pharmacy and an unknown one (404)", async () => {
    const client = await api().login();
    const other = await api().login("courier2@example.com");
    const submission = await submissionFor(client, setup.northside);
    const body = await expectRefusedUnchanged(() => postReturn(other, setup.northside, { ...submission, courier_id: other.courierId }), 404);
    expect(body.message).toBe(`Pharmacy ${setup.northside} was not found.`);
    await expectRefusedUnchanged(() => postReturn(client, 999_999, { ...submission, pharmacy_id: 999_999 }), 404);
  });

  it("refuses a form whose courier or pharmacy is not the session's or the path's (400)", async () => {
    const client = await api().login();
    const other = await api().login("courier2@example.com");
    const submission = await submissionFor(client, setup.northside);
    const courier = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, courier_id: other.courierId }), 400);
    expect(courier.message).toBe(`courier_id ${other.courierId} is not the courier who is logged in.`);
    const riverside = await pharmacyId("Riverside Community Pharmacy");
    const pharmacy = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, pharmacy_id: riverside }), 400);
    expect(pharmacy.message).toBe(`The form is for pharmacy ${riverside}, but was sent to pharmacy ${setup.northside}.`);
  });

  it("refuses cash or check totals that do not match what was collected (409), never adjusting them", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const lessCash = submission.returns.map((line) => (line.type === "cash" ? { ...line, amount: "10.00" } : line));
    const cash = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, cash_collected: "10.00", returns: lessCash }), 409);
    expect(cash).toEqual({
      error: "return_mismatch",
      message: "The cash handed back, $10.00, is not the $12.50 collected in cash for Northside Family Drugs. Please refresh and check the return again.",
    });
    const moreCheck = submission.returns.map((line) => (line.type === "check" ? { ...line, amount: "30.00" } : line));
    const check = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, check_collected: "30.00", returns: moreCheck }), 409);
    expect(check.message).toBe(
      "The checks handed back, $30.00, are not the $24.00 collected by check for Northside Family Drugs. Please refresh and check the return again.",
    );
    // Cash handed back as a check: both totals are off.
    const swapped = submission.returns.map((line) => (line.type === "cash" ? { ...line, type: "check" as const } : line));
    await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, cash_collected: "0.00", check_collected: "36.50", returns: swapped }), 409);
  });

  it("refuses totals that disagree with the form's own lines (400)", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const body = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, cash_collected: "99.00" }), 400);
    expect(body.message).toBe("cash_collected 99.00 is not the 12.50 of the cash lines.");
    await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, check_collected: "0.00" }), 400);
  });

  it("refuses return lines that leave out, add or change an order (409)", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const [evansLine, freemanLine, ...payments] = submission.returns as [WireReturnLine, WireReturnLine, ...WireReturnLine[]];
    const missing = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, returns: [evansLine, ...payments] }), 409);
    expect(missing.message).toBe(`Order ${setup.freeman} must be returned too (an undelivered item). Please refresh and check the return again.`);

    const stranger = await orderId("Abernathy");
    const extra = await expectRefusedUnchanged(
      () => postReturn(client, setup.northside, { ...submission, returns: [...submission.returns, { type: "item", amount: "17.50", order_id: stranger }] }),
      409,
    );
    expect(extra.message).toBe(`Order ${stranger} has nothing to return to this pharmacy. Please refresh and check the return again.`);

    const wrongAmount = await expectRefusedUnchanged(
      () => postReturn(client, setup.northside, { ...submission, returns: [evansLine, { ...freemanLine, amount: "4.00" }, ...payments] }),
      409,
    );
    expect(wrongAmount.message).toBe(`The amount to return for order ${setup.freeman} is $5.00, not $4.00. Please refresh and check the return again.`);
  });

  it("refuses missing staff names or signature (400)", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const first = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, recipient_first_name: "  " }), 400);
    expect(first.message).toBe("recipient_first_name is required.");
    const last = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, recipient_last_name: "" }), 400);
    expect(last.message).toBe("recipient_last_name is required.");
    const entries = returnFormEntries(submission).filter(([name]) => name !== "signature[attachment][file]");
    const unsigned = await expectRefusedUnchanged(() => postForm(client, `/api/courier/pharmacies/${setup.northside}/returns`, entries), 400);
    expect(unsigned.message).toBe("signature is required: the pharmacy staff member signs for the items.");
    const long = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, recipient_last_name: "x".repeat(33) }), 400);
    expect(long.message).toBe("recipient_last_name must be at most 32 characters.");
  });

  it("refuses a signature with a script, or one that is not SVG (400)", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const scripted = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, signature_svg: SCRIPTED_SVG }), 400);
    expect(scripted).toMatchObject({ error: "invalid_signature", message: "The signature may contain drawing elements only, not <script>." });
    const entries = returnFormEntries(submission).map(([name, value]): [string, FormValue] =>
      name === "signature[attachment][file]" ? [name, { filename: "signature.png", type: "image/png", content: "PNG" }] : [name, value],
    );
    const png = await expectRefusedUnchanged(() => postForm(client, `/api/courier/pharmacies/${setup.northside}/returns`, entries), 400);
    expect(png.message).toBe("The signature must be an SVG image (image/svg+xml).");
  });

  it("refuses malformed return lines and coordinates (400)", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const url = `/api/courier/pharmacies/${setup.northside}/returns`;
    const replaced = (field: string, value: string) =>
      returnFormEntries(submission).map(([name, v]): [string, FormValue] => (name === field ? [name, value] : [name, v]));
    const notJson = await expectRefusedUnchanged(() => postForm(client, url, replaced("returns", "[{type:")), 400);
    expect(notJson.message).toBe("returns must be a JSON list of return lines.");
    await expectRefusedUnchanged(() => postForm(client, url, replaced("returns", JSON.stringify([{ type: "coupon", amount: "1.00", order_id: 1 }]))), 400);
    await expectRefusedUnchanged(() => postForm(client, url, replaced("returns", JSON.stringify([{ type: "item", amount: 650, order_id: setup.evans }]))), 400);
    await expectRefusedUnchanged(() => postForm(client, url, replaced("cash_collected", "12.5")), 400);
    const half = await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, latitude: 40 }), 400);
    expect(half.message).toBe("Send latitude and longitude together, or neither.");
    await expectRefusedUnchanged(() => postReturn(client, setup.northside, { ...submission, latitude: 95, longitude: 0 }), 400);
  });

  it("refuses a return when nothing is to go back (409)", async () => {
    const client = await api().login();
    const lakeside = await pharmacyId("Lakeside Specialty Pharmacy");
    const submission = await submissionFor(client, lakeside);
    expect(submission.returns).toEqual([]);
    const body = await expectRefusedUnchanged(() => postReturn(client, lakeside, submission), 409);
    expect(body).toEqual({ error: "conflict", message: "There is nothing to return to Lakeside Specialty Pharmacy." });
  });

  // ---------------------------------------------------------------- success

  it("records the return in one go: signature, lines, deliveries, statuses, and the pharmacy is Completed", async () => {
    const client = await api().login();
    const { northside, coleman, diaz, evans, freeman } = setup;
    const changesBefore = await statusChanges();
    const submission = await submissionFor(client, northside, { latitude: 39.9943, longitude: -75.1467 });
    const response = await postReturn(client, northside, submission, "header");
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      return: { id: expect.any(Number), order_ids: [coleman, diaz, evans, freeman].sort((a, b) => a - b), cash_collected: "12.50", check_collected: "24.00" },
    });

    const [signature] = await db().select().from(returnSignatures).where(eq(returnSignatures.id, body.return.id));
    expect(signature).toMatchObject({
      courierId: client.courierId,
      pharmacyId: northside,
      recipientFirstName: "Priya",
      recipientLastName: "Raman",
      signatureSvg: SVG,
      cashCollectedCents: 1250,
      checkCollectedCents: 2400,
      latitude: 39.9943,
      longitude: -75.1467,
    });
    const lines = await db().select().from(returnLines).where(eq(returnLines.returnSignatureId, body.return.id)).orderBy(returnLines.id);
    expect(lines.map(({ type, amountCents, orderId }) => ({ type, amountCents, orderId }))).toEqual([
      { type: "item", amountCents: 650, orderId: evans },
      { type: "item", amountCents: 500, orderId: freeman },
      { type: "cash", amountCents: 1250, orderId: coleman },
      { type: "check", amountCents: 2400, orderId: diaz },
    ]);

    // Only the order never attempted is "created as a delivery"; Evans has its failed attempt already.
    const returned = await db().select().from(deliveries).where(eq(deliveries.outcome, "returned"));
    expect(returned).toHaveLength(1);
    expect(returned[0]).toMatchObject({ courierId: client.courierId, recipientFirstName: "Priya", recipientLastName: "Raman", signedBy: "Priya Raman", signatureSvg: SVG });
    const members = await db().select().from(deliveryOrders).where(eq(deliveryOrders.deliveryId, returned[0]!.id));
    expect(members.map((m) => m.orderId)).toEqual([freeman]);

    const after = await db().select().from(orders).where(inArray(orders.id, [coleman, diaz, evans, freeman]));
    const statusOf = (id: number) => after.find((row) => row.id === id)!.statusId;
    expect(statusOf(evans)).toBe(statusByName("returned_to_pharmacy").id);
    expect(statusOf(freeman)).toBe(statusByName("returned_to_pharmacy").id);
    expect(statusOf(coleman)).toBe(statusByName("reconciled").id);
    expect(statusOf(diaz)).toBe(statusByName("reconciled").id);
    expect(after.every((row) => row.itemReturned)).toBe(true);

    const trail = await db().select().from(auditEvents).where(inArray(auditEvents.orderId, [coleman, diaz, evans, freeman]));
    const changes = trail.filter((row) => row.toStatus === "returned_to_pharmacy" || row.toStatus === "reconciled");
    expect(changes.map(({ orderId, fromStatus, toStatus }) => ({ orderId, fromStatus, toStatus })).sort((a, b) => a.orderId! - b.orderId!)).toEqual(
      [
        { orderId: coleman, fromStatus: "delivered", toStatus: "reconciled" },
        { orderId: diaz, fromStatus: "delivered", toStatus: "reconciled" },
        { orderId: evans, fromStatus: "delivery_attempted", toStatus: "returned_to_pharmacy" },
        { orderId: freeman, fromStatus: "picked_up", toStatus: "returned_to_pharmacy" },
      ].sort((a, b) => a.orderId - b.orderId),
    );
    expect(await statusChanges()).toBe(changesBefore + 4);

    // The app's view of the day: the pharmacy is Completed by the §4 rule.
    const today = await day(client);
    expect(isPharmacyComplete(today.orders, northside)).toBe(true);
    expect(pharmacySections(today.orders, northside)).toEqual(["completed"]);
    expect(returnSummary(today.orders, northside).lines).toEqual([]);
  });

  it("a second return of the same things finds nothing left (409) and changes nothing", async () => {
    const client = await api().login();
    const submission = await submissionFor(client, setup.northside);
    const body = await expectRefusedUnchanged(() => postReturn(client, setup.northside, submission), 409);
    expect(body.message).toBe("There is nothing to return to Northside Family Drugs.");
  });

  it("returns only undelivered items (no cash, no check), with the Idempotency-Key replaying a retried send", async () => {
    const client = await api().login();
    const greenway = await pharmacyId("Greenway Health Pharmacy");
    const [first, ...rest] = (await day(client)).orders.filter((order) => order.pharmacy.id === greenway).map((order) => order.id);
    const failed = await client.post("/api/courier/deliveries", { delivery: { failure_reason: "Patient Not Home", client_occurred_at: OCCURRED, order_ids: [first] } });
    expect(failed.statusCode).toBe(200);
    const submission = await submissionFor(client, greenway);
    expect(submission).toMatchObject({ cash_collected: "0.00", check_collected: "0.00" });
    expect(submission.returns.map((line) => line.type)).toEqual(["item", "item", "item", "item"]);

    const key = { "idempotency-key": "0b0c7d8e-5f4a-4b3c-9d2e-1f0a9b8c7d6e" };
    const response = await postReturn(client, greenway, submission, "field", key);
    expect(response.statusCode, response.body).toBe(200);
    const retried = await postReturn(client, greenway, submission, "field", key);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toEqual(response.json());
    expect((await db().select().from(returnSignatures).where(eq(returnSignatures.pharmacyId, greenway)))).toHaveLength(1);

    const today = await day(client);
    expect(today.orders.filter((order) => [first, ...rest].includes(order.id)).map((order) => order.status.name)).toEqual(
      Array(4).fill("returned_to_pharmacy"),
    );
    expect(isPharmacyComplete(today.orders, greenway)).toBe(true);
  });

  it("two returns sent at once: one is recorded, the other finds nothing left", async () => {
    const client = await api().login("courier2@example.com");
    const market = await pharmacyId("Market Street Apothecary");
    const submission = await submissionFor(client, market);
    expect(submission.returns).toHaveLength(2);
    const results = await Promise.all([postReturn(client, market, submission), postReturn(client, market, submission)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await db().select().from(returnSignatures).where(eq(returnSignatures.courierId, client.courierId))).toHaveLength(1);
  });

  it("is described in the OpenAPI document", async () => {
    const response = await api().anonymous("GET", "/api/openapi.json");
    expect(response.statusCode).toBe(200);
    expect(Object.keys(response.json().paths)).toContain("/api/courier/pharmacies/{id}/returns");
  });
});
