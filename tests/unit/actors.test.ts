import { describe, expect, it } from "vitest";
import { actingParty, actingPartyRef, actorInWords } from "../../domain/actors.ts";

describe("who acted (domain/actors.ts)", () => {
  it("is the console's staff member, else the key, else the courier, else the system", () => {
    expect(actingParty({ staffId: 2, apiKeyId: null, courierId: null })).toEqual({ kind: "staff", id: 2 });
    // A key's assignment row carries the courier assigned: the key acted.
    expect(actingParty({ staffId: null, apiKeyId: 3, courierId: 7 })).toEqual({ kind: "key", id: 3 });
    expect(actingParty({ staffId: null, apiKeyId: null, courierId: 7 })).toEqual({ kind: "courier", id: 7 });
    expect(actingParty({ staffId: null, apiKeyId: null, courierId: null })).toBeNull();
  });

  it("is written as the status history's actor string", () => {
    expect(actingPartyRef({ kind: "courier", id: 7 })).toBe("courier:7");
    expect(actingPartyRef(null)).toBeNull();
  });

  it("is said in words by role and name, the system when nobody", () => {
    expect(actorInWords({ type: "courier", id: 7, name: "Dana Whitfield" })).toBe("Courier: Dana Whitfield");
    expect(actorInWords({ type: "dispatcher", id: 2, name: "Jordan Reyes" })).toBe("Dispatcher: Jordan Reyes");
    expect(actorInWords({ type: "key", id: 3, name: "Demo day" })).toBe("API key: Demo day");
    expect(actorInWords({ type: "staff", id: null, name: "Lena Brooks" })).toBe("Pharmacy staff: Lena Brooks");
    expect(actorInWords(null)).toBe("System");
  });
});
