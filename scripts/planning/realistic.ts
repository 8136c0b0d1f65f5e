/**
 * A seeded, realistic day for the planner's bench: 400 orders from 12
 * pharmacies across a city of about 22 × 17 km (each order's patient within
 * 5 km of its pharmacy), 10 couriers starting and
 * ending at home with their own shifts and capacities. Pharmacies open 08:00–
 * 09:00 and close 18:00–20:00; 60 % of patients were promised a two-hour
 * window. Travel is straight-line distance × 1.3 at 30 km/h (the product's
 * defaults), 5 minutes per pharmacy visit, 3 per delivery. Times in seconds
 * since midnight, distances in km.
 */
import type { PlanProblem, PlanTask, PlanVehicle } from "../../domain/planning.ts";
import { haversineMeters, type LatLng } from "../../server/services/routing/distance.ts";
import { randomInt, seededRandom } from "../../server/services/routing/prng.ts";

const HOUR = 3600;
const DETOUR = 1.3;
const SPEED_KMH = 30;

export function realisticDay(options: { orders?: number; pharmacies?: number; couriers?: number; seed?: number } = {}): PlanProblem {
  const orders = options.orders ?? 400;
  const pharmacyCount = options.pharmacies ?? 12;
  const courierCount = options.couriers ?? 10;
  const random = seededRandom(options.seed ?? 20261125);
  const point = (): LatLng => ({ latitude: 39.87 + random() * 0.2, longitude: -75.28 + random() * 0.2 });
  const places: LatLng[] = [];
  const pharmacies = Array.from({ length: pharmacyCount }, () => {
    places.push(point());
    return { location: places.length - 1, open: 8 * HOUR + randomInt(random, 5) * 900, close: 18 * HOUR + randomInt(random, 9) * 900 };
  });
  const tasks: PlanTask[] = [];
  for (let i = 0; i < orders; i++) {
    // Patients live within 5 km of their pharmacy (a pharmacy serves its part of town).
    const pharmacy = pharmacies[randomInt(random, pharmacyCount)]!;
    const around = places[pharmacy.location]!;
    const radiusKm = 5 * Math.sqrt(random());
    const angle = random() * 2 * Math.PI;
    places.push({ latitude: around.latitude + (radiusKm * Math.sin(angle)) / 111.2, longitude: around.longitude + (radiusKm * Math.cos(angle)) / (111.2 * Math.cos((around.latitude * Math.PI) / 180)) });
    const windowed = random() < 0.6;
    const from = 9 * HOUR + randomInt(random, 17) * 1800;
    tasks.push({
      id: `order-${i + 1}`,
      pickup: { location: pharmacy.location, windowStart: pharmacy.open, windowEnd: pharmacy.close, service: 5 * 60 },
      delivery: { location: places.length - 1, windowStart: windowed ? from : 0, windowEnd: windowed ? from + 2 * HOUR : 22 * HOUR, service: 3 * 60 },
      size: 1,
    });
  }
  const vehicles: PlanVehicle[] = Array.from({ length: courierCount }, (_, c) => {
    places.push(point());
    const shiftStart = (7 + randomInt(random, 4)) * HOUR;
    return { id: `courier-${c + 1}`, start: places.length - 1, end: places.length - 1, shiftStart, shiftEnd: shiftStart + (9 + randomInt(random, 3)) * HOUR, capacity: 10 + randomInt(random, 11) };
  });
  const distance = places.map((a) => places.map((b) => (haversineMeters(a, b) / 1000) * DETOUR));
  const travel = distance.map((row) => row.map((km) => (km / SPEED_KMH) * HOUR));
  return { travel, distance, vehicles, tasks, serviceOncePerLocation: true };
}
