import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeEach, expect, it } from "vitest";
import { haversineMeters } from "../../server/services/routing/distance.ts";
import { OsrmTravel, UNREACHABLE } from "../../server/services/routing/travel-matrix.ts";
import { TEST_DAY } from "../support/api-harness.ts";
import { describeOps, orderBody, pharmacyBody } from "../support/ops-harness.ts";

/**
 * A small OSRM stand-in answering the documented /table response format
 * ({code: "Ok", durations, distances}); what it answers is set per test.
 */
type Mode = "ok" | "refuse" | "garbage" | "unroutable";
let mode: Mode = "ok";
const requests: string[] = [];

function table(request: IncomingMessage, response: ServerResponse) {
  requests.push(request.url ?? "");
  const match = /^\/table\/v1\/driving\/([^?]+)\?annotations=duration,distance$/.exec(request.url ?? "");
  response.setHeader("content-type", "application/json");
  if (!match || mode === "refuse") {
    response.statusCode = 400;
    response.end(JSON.stringify({ code: "InvalidQuery", message: "Query string malformed close to position 7" }));
    return;
  }
  if (mode === "garbage") {
    response.end(JSON.stringify({ code: "Ok", durations: [[0]] }));
    return;
  }
  const points = match[1]!.split(";").map((pair) => {
    const [longitude, latitude] = pair.split(",").map(Number) as [number, number];
    return { latitude, longitude };
  });
  // Roads twice as long as the straight line, at 36 km/h (10 m/s): easy to tell from the straight-line default.
  const distances = points.map((a) => points.map((b) => Math.round(haversineMeters(a, b) * 2)));
  const durations = distances.map((row, i) => row.map((metres, j) => (mode === "unroutable" && i !== j && (i === points.length - 1 || j === points.length - 1) ? null : metres / 10)));
  response.end(JSON.stringify({ code: "Ok", durations, distances }));
}

const server = createServer(table);
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const osrmUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

beforeEach(() => {
  mode = "ok";
  requests.length = 0;
});

it("asks OSRM's /table for durations and distances, longitude first, and reads a missing route as unreachable", async () => {
  const travel = new OsrmTravel(osrmUrl);
  const points = [
    { latitude: 39.95, longitude: -75.16 },
    { latitude: 39.96, longitude: -75.15 },
  ];
  const matrix = await travel.matrix(points);
  expect(requests).toEqual(["/table/v1/driving/-75.160000,39.950000;-75.150000,39.960000?annotations=duration,distance"]);
  const metres = Math.round(haversineMeters(points[0]!, points[1]!) * 2);
  expect(matrix.distances).toEqual([[0, metres], [metres, 0]]);
  expect(matrix.durations[0]![1]).toBeCloseTo(metres / 10);

  mode = "unroutable";
  expect((await travel.matrix(points)).durations[0]![1]).toBe(UNREACHABLE);
});

it("says in words when OSRM refuses, answers nonsense or cannot be reached", async () => {
  const points = [{ latitude: 39.95, longitude: -75.16 }, { latitude: 39.96, longitude: -75.15 }];
  mode = "refuse";
  await expect(new OsrmTravel(osrmUrl).matrix(points)).rejects.toMatchObject({ statusCode: 502, message: expect.stringContaining("InvalidQuery: Query string malformed") });
  mode = "garbage";
  await expect(new OsrmTravel(osrmUrl).matrix(points)).rejects.toMatchObject({ statusCode: 502, message: expect.stringContaining("without a 2×2 table of durations") });
  await expect(new OsrmTravel("http://127.0.0.1:1").matrix(points)).rejects.toMatchObject({ statusCode: 503, message: expect.stringContaining("cannot be reached") });
});

describeOps(
  "ops API: plans on an OSRM server",
  (ctx) => {
    async function plan() {
      const pharmacyId = (await ctx().ops("POST", "/api/ops/v1/pharmacies", pharmacyBody())).json().pharmacy.id;
      const orderId = (await ctx().ops("POST", "/api/ops/v1/orders", orderBody(pharmacyId, `O-${Math.random()}`))).json().order.id;
      return ctx().ops("POST", "/api/ops/v1/plans", { service_date: TEST_DAY, courier_ids: [1], order_ids: [orderId], time_limit_seconds: 1 });
    }

    it("plans with the road engine's distances", async () => {
      const response = await plan();
      expect(response.statusCode).toBe(201);
      expect(requests).toHaveLength(1);
      // pharmacyBody (39.946, -75.142) to orderBody (39.9526, -75.1425): about 0.73 km straight, ×2 on OSRM's roads.
      const straight = haversineMeters({ latitude: 39.946, longitude: -75.142 }, { latitude: 39.9526, longitude: -75.1425 });
      expect(response.json().plan.distance_km).toBeCloseTo(Math.round((straight * 2) / 100) / 10, 1);
    });

    it("answers 502 in words when the road engine refuses, and makes no plan", async () => {
      mode = "refuse";
      const response = await plan();
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ error: "road_engine_error", message: expect.stringContaining("(OSRM_URL) refused the table") });
    });
  },
  { OSRM_URL: osrmUrl },
);
