import { describe, expect, it } from "vitest";
import { statusByName } from "../../domain/vocabulary.ts";
import { webhookOrder, webhookOrderJson, webhookOrderMiddle } from "../../server/services/webhooks/webhook-order.ts";

/**
 * An orders batch joins each order.created body from a middle part built in
 * the batch check's worker and the id and updated_at the insert gives
 * (issue 25): the text must be what JSON.stringify(webhookOrder(row)) gives,
 * which every other event and its webhook signature are made of.
 */
describe("webhookOrderMiddle and webhookOrderJson", () => {
  const rows = [
    { externalId: "RX-1", pharmacyId: 3, courierId: null, serviceDate: "2026-11-27", statusId: statusByName("new").id },
    { externalId: 'quote " back\\slash \u00e9\u2028 \n', pharmacyId: 12, courierId: 7, serviceDate: "2026-12-01", statusId: statusByName("submitted_to_courier").id },
    { externalId: null, pharmacyId: 1, courierId: null, serviceDate: "2026-11-30", statusId: statusByName("new").id },
  ];
  for (const row of rows) {
    it(`gives the same text as webhookOrder for ${JSON.stringify(row.externalId)}`, () => {
      const updatedAt = new Date("2026-11-27T13:14:15.678Z");
      const expected = JSON.stringify(webhookOrder({ ...row, id: 4_321, updatedAt }));
      expect(webhookOrderJson(4_321, webhookOrderMiddle(row), updatedAt.toISOString())).toBe(expected);
      expect(JSON.parse(expected)).toEqual(webhookOrder({ ...row, id: 4_321, updatedAt }));
    });
  }
  it("leaves a row without its status to the caller", () => {
    expect(() => webhookOrderMiddle({ externalId: "X", pharmacyId: 1, serviceDate: "2026-11-27" })).toThrow();
  });
});
