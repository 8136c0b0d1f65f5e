import { describe, expect, it } from "vitest";
import type { CustodyEntry } from "../../../domain/contract/ops-proof.ts";
import { copayChange } from "../../../server/ops/services/proof/filed-proof.ts";
import { documentId, filed } from "../../../server/ops/services/proof/filing.ts";

/** Issue 25: what makes a proof a document a pharmacy can file (its id), and the copay change it shows. */

describe("document id", () => {
  it("is the same for the same content whatever the order of its keys, and changes with the content or the zone", () => {
    const content = { order: { id: 7, rx_numbers: ["RX-1"] }, notes: "Left at the door" };
    const id = documentId("POD", 7, content);
    expect(id).toMatch(/^POD-7-[0-9A-F]{12}$/);
    expect(documentId("POD", 7, { notes: "Left at the door", order: { rx_numbers: ["RX-1"], id: 7 } })).toBe(id);
    expect(documentId("POD", 7, { ...content, notes: "Left at the side door" })).not.toBe(id);
    const now = new Date("2026-11-22T09:00:00Z");
    const later = new Date("2026-11-23T09:00:00Z");
    expect(filed("POD", 7, content, "America/New_York", now).document_id).toBe(filed("POD", 7, content, "America/New_York", later).document_id);
    expect(filed("POD", 7, content, "America/Chicago", now).document_id).not.toBe(filed("POD", 7, content, "America/New_York", now).document_id);
    expect(filed("POD", 7, content, "America/New_York", now)).toMatchObject({ generated_at: "2026-11-22T09:00:00.000Z", time_zone: "America/New_York", ...content });
  });
});

const entry = (details: CustodyEntry["details"], name = "Dana Whitfield"): CustodyEntry => ({
  event: "verified",
  at: "2026-11-21T13:00:00.000Z",
  client_occurred_at: null,
  actor: { type: "courier", id: 1, name },
  latitude: null,
  longitude: null,
  details,
});

describe("copay change at pickup, from custody", () => {
  it("is null when custody has no copay details (records from before they were kept)", () => {
    expect(copayChange([entry({ copay_asserted: true })])).toBeNull();
    expect(copayChange([])).toBeNull();
  });

  it("reads decimal strings or cents, and names who changed it and when", () => {
    expect(copayChange([entry({ copay_asserted: true, copay_before: "12.50", copay_after: "0.00" })])).toEqual({
      before: "12.50",
      after: "0.00",
      changed_by: "Dana Whitfield",
      at: "2026-11-21T13:00:00.000Z",
    });
    expect(copayChange([entry({ copay_before: 1250, copay_after: null })])).toMatchObject({ before: "12.50", after: null });
  });

  it("is the latest change, and nothing when the amount did not change", () => {
    expect(copayChange([entry({ copay_before: "12.50", copay_after: "5.00" }), entry({ copay_before: "5.00", copay_after: "0.00" }, "Sam Lee")])).toMatchObject({
      before: "5.00",
      after: "0.00",
      changed_by: "Sam Lee",
    });
    expect(copayChange([entry({ copay_before: "12.50", copay_after: "12.50" })])).toBeNull();
  });
});
