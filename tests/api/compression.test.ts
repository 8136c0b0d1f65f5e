import { brotliDecompressSync } from "node:zlib";
import { expect, it } from "vitest";
import { describeApi } from "../support/api-harness.ts";

describeApi("compressed answers", (api) => {
  it("sends the courier's day compressed when the phone accepts it, and the same JSON once inflated", async () => {
    const client = await api().login();
    const plain = await client.get("/api/courier/itinerary");
    const compressed = await client.get("/api/courier/itinerary", { headers: { "accept-encoding": "br, gzip" } });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    const inflated = brotliDecompressSync(compressed.rawPayload).toString("utf8");
    expect(JSON.parse(inflated)).toEqual(plain.json());
    expect(compressed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
  });
});

describeApi("compressed answers and idempotent replays", (api) => {
  it("replays the first answer intact to a phone that accepts compression", async () => {
    const client = await api().login();
    const day = (await client.get("/api/courier/itinerary")).json() as { orders: { id: number; status: { name: string } }[] };
    const order = day.orders.find((o) => o.status.name === "submitted_to_courier")!;
    const headers = { "accept-encoding": "br, gzip", "idempotency-key": "6f1c2a4e-8b7d-4c3e-9a1f-2d3b4c5d6e7f" };
    const first = await client.post(`/api/orders/${order.id}/pickups`, {}, { headers });
    const replay = await client.post(`/api/orders/${order.id}/pickups`, {}, { headers });
    expect(first.statusCode).toBe(200);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    const inflate = (response: typeof first) =>
      response.headers["content-encoding"] === "br" ? brotliDecompressSync(response.rawPayload).toString("utf8") : response.body;
    expect(JSON.parse(inflate(replay))).toEqual(JSON.parse(inflate(first)));
    expect(JSON.parse(inflate(first)).status.name).toBe("picked_up");
  });
});
