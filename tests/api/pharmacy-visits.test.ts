import { expect, it } from "vitest";
import { PharmacyVisit } from "../../domain/contract/entities.ts";
import { ItineraryResponse } from "../../domain/contract/itinerary.ts";
import { PharmacyVisitsResponse } from "../../domain/contract/pickup.ts";
import { describeApi, type ApiClient } from "../support/api-harness.ts";

async function visits(client: ApiClient) {
  return ItineraryResponse.parse((await client.get("/api/courier/itinerary")).json()).pharmacy_visits;
}

async function visitAt(client: ApiClient, pharmacyName: string) {
  const visit = (await visits(client)).find((v) => v.pharmacy.name === pharmacyName);
  if (!visit) throw new Error(`no visit at ${pharmacyName}`);
  return visit;
}

const arrivedUrl = (courierId: number | string, visitId: number | string) =>
  `/api/couriers/${courierId}/pharmacy_visits/${visitId}/arrived_at_pharmacy`;
const confirmUrl = (courierId: number | string) => `/api/couriers/${courierId}/pharmacy_visits/confirm`;

describeApi("pharmacy visits: arrival and confirmation", (api) => {
  it("records the arrival at a visit and keeps the first time when called again", async () => {
    const client = await api().login();
    const visit = await visitAt(client, "Riverside Community Pharmacy");
    expect(visit.arrived_at).toBeNull();

    const first = await client.put(arrivedUrl(client.courierId, visit.id));
    expect(first.statusCode).toBe(200);
    const body = PharmacyVisit.parse(first.json());
    expect(body.id).toBe(visit.id);
    expect(body.pharmacy.name).toBe("Riverside Community Pharmacy");
    expect(Date.parse(body.arrived_at!)).not.toBeNaN();

    const second = await client.request("PUT", arrivedUrl(client.courierId, visit.id));
    expect(second.statusCode).toBe(200);
    expect(second.json().arrived_at).toBe(body.arrived_at);
    expect((await visitAt(client, "Riverside Community Pharmacy")).arrived_at).toBe(body.arrived_at);
  });

  it("another courier's visit, another courier's path, or no visit at all is 404", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const theirs = (await visits(marcus))[0]!;
    const mine = await visitAt(dana, "Market Street Apothecary");
    for (const response of [
      await dana.put(arrivedUrl(dana.courierId, theirs.id)),
      await dana.put(arrivedUrl(marcus.courierId, theirs.id)),
      await dana.put(arrivedUrl(marcus.courierId, mine.id)),
      await dana.put(arrivedUrl(dana.courierId, 999999)),
      await dana.post(confirmUrl(dana.courierId), { pharmacy_visits: [{ id: theirs.id, confirmed: false }] }),
      await dana.post(confirmUrl(marcus.courierId), { pharmacy_visits: [{ id: theirs.id, confirmed: false }] }),
      await dana.post(confirmUrl(marcus.courierId), { pharmacy_visits: [{ id: mine.id, confirmed: false }] }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe("not_found");
    }
    expect((await visits(marcus)).find((v) => v.id === theirs.id)).toEqual(theirs);
    expect((await visitAt(dana, "Market Street Apothecary")).confirmed).toBe(true);
    expect((await visitAt(dana, "Market Street Apothecary")).arrived_at).toBeNull();
  });

  it("refuses ids that are not ids with 400", async () => {
    const client = await api().login();
    for (const url of [arrivedUrl("me", 1), arrivedUrl(client.courierId, "x"), arrivedUrl(client.courierId, "99999999999"), confirmUrl("0")]) {
      const response = url.endsWith("confirm")
        ? await client.post(url, { pharmacy_visits: [{ id: 1, confirmed: true }] })
        : await client.put(url);
      expect(response.statusCode, url).toBe(400);
    }
  });

  it("stores each answer to a pending visit; the visit is then no longer pending", async () => {
    const client = await api().login();
    const pending = (await visits(client)).filter((v) => v.confirmed === null);
    expect(pending.map((v) => v.pharmacy.name)).toEqual(["Lakeside Specialty Pharmacy"]);
    const greenway = await visitAt(client, "Greenway Health Pharmacy");

    const response = await client.post(confirmUrl(client.courierId), {
      pharmacy_visits: [
        { id: pending[0]!.id, confirmed: true },
        { id: greenway.id, confirmed: false },
      ],
    });
    expect(response.statusCode).toBe(200);
    const body = PharmacyVisitsResponse.parse(response.json());
    expect(body.pharmacy_visits.map((v) => [v.id, v.confirmed])).toEqual([
      [pending[0]!.id, true],
      [greenway.id, false],
    ]);

    const after = await visits(client);
    expect(after.filter((v) => v.confirmed === null)).toEqual([]);
    expect(after.find((v) => v.id === greenway.id)!.confirmed).toBe(false);
    expect(after.find((v) => v.id === pending[0]!.id)!.confirmed).toBe(true);
  });

  it("stores nothing when one of the visits is not the courier's", async () => {
    const dana = await api().login();
    const marcus = await api().login("courier2@example.com");
    const mine = await visitAt(dana, "Northside Family Drugs");
    const theirs = (await visits(marcus))[0]!;
    const response = await dana.post(confirmUrl(dana.courierId), {
      pharmacy_visits: [
        { id: mine.id, confirmed: false },
        { id: theirs.id, confirmed: false },
      ],
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe(`Pharmacy visit ${theirs.id} was not found.`);
    expect((await visitAt(dana, "Northside Family Drugs")).confirmed).toBe(true);
  });

  it("refuses malformed or wrongly typed answers with 400, storing nothing", async () => {
    const client = await api().login();
    const visit = await visitAt(client, "Riverside Community Pharmacy");
    const bodies: unknown[] = [
      {},
      { pharmacy_visits: [] },
      { pharmacy_visits: [{ id: visit.id }] },
      { pharmacy_visits: [{ id: visit.id, confirmed: "yes" }] },
      { pharmacy_visits: [{ id: visit.id, confirmed: null }] },
      { pharmacy_visits: [{ id: String(visit.id), confirmed: false }] },
      { pharmacy_visits: [{ id: visit.id, confirmed: false }, { id: visit.id, confirmed: true }] },
      { pharmacy_visits: { id: visit.id, confirmed: false } },
    ];
    for (const body of bodies) {
      const response = await client.post(confirmUrl(client.courierId), body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error).toBe("invalid_request");
    }
    expect((await client.request("POST", confirmUrl(client.courierId), "{pharmacy")).statusCode).toBe(400);
    expect((await visitAt(client, "Riverside Community Pharmacy")).confirmed).toBe(true);
  });

  it("needs the CSRF token and a session", async () => {
    const client = await api().login();
    const visit = await visitAt(client, "Greenway Health Pharmacy");
    const noToken = { csrf: false } as const;
    expect((await client.put(arrivedUrl(client.courierId, visit.id), undefined, noToken)).statusCode).toBe(403);
    expect(
      (await client.post(confirmUrl(client.courierId), { pharmacy_visits: [{ id: visit.id, confirmed: true }] }, noToken)).statusCode,
    ).toBe(403);
    expect((await api().anonymous("PUT", arrivedUrl(client.courierId, visit.id), {})).statusCode).toBe(401);
    expect((await visitAt(client, "Greenway Health Pharmacy")).arrived_at).toBeNull();
  });
});
