import { HttpError } from "../../http/errors.ts";
import { haversineMeters, type LatLng } from "./distance.ts";

/**
 * Travel between the places of a plan (issue 28), behind one interface: by
 * default straight lines × a detour factor at an average speed; when the
 * company runs an OSRM server (OSRM_URL), its /table service's road
 * durations and distances.
 */
export interface TravelMatrix {
  /** Seconds from row to column; UNREACHABLE where no road joins them. */
  durations: number[][];
  /** Metres from row to column; UNREACHABLE where no road joins them. */
  distances: number[][];
}

/** Where a road engine found no way: far more than a day, so no plan can use it. */
export const UNREACHABLE = 1e9;

export interface TravelMatrixProvider {
  /** What answers (named in errors and in docs). */
  readonly name: string;
  matrix(points: readonly LatLng[]): Promise<TravelMatrix>;
}

export class StraightLineTravel implements TravelMatrixProvider {
  readonly name = "straight lines";
  constructor(private readonly options: { detourFactor: number; speedKmh: number }) {}

  matrix(points: readonly LatLng[]): Promise<TravelMatrix> {
    const metresPerSecond = (this.options.speedKmh * 1000) / 3600;
    const distances = points.map((a) => points.map((b) => haversineMeters(a, b) * this.options.detourFactor));
    const durations = distances.map((row) => row.map((metres) => metres / metresPerSecond));
    return Promise.resolve({ durations, distances });
  }
}

/** OSRM's documented /table answer (http://project-osrm.org/docs/v5.24.0/api/#table-service). */
interface OsrmTableAnswer {
  code?: string;
  message?: string;
  durations?: (number | null)[][];
  distances?: (number | null)[][];
}

const roadEngineDown = (message: string) => new HttpError(503, "road_engine_unavailable", message);
const roadEngineWrong = (message: string) => new HttpError(502, "road_engine_error", message);

function squareOf(values: (number | null)[][] | undefined, size: number, what: string, baseUrl: string): number[][] {
  if (!Array.isArray(values) || values.length !== size || values.some((row) => !Array.isArray(row) || row.length !== size)) {
    throw roadEngineWrong(`The road engine at ${baseUrl} (OSRM_URL) answered without a ${size}×${size} table of ${what}.`);
  }
  // null: OSRM found no route between the two places.
  return values.map((row) => row.map((value) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : UNREACHABLE)));
}

export class OsrmTravel implements TravelMatrixProvider {
  readonly name: string;
  constructor(
    private readonly baseUrl: string,
    private readonly options: { timeoutMs?: number; fetch?: typeof fetch } = {},
  ) {
    this.name = `OSRM at ${baseUrl}`;
  }

  async matrix(points: readonly LatLng[]): Promise<TravelMatrix> {
    if (points.length === 0) return { durations: [], distances: [] };
    // OSRM takes longitude first; 6 decimals is about 10 cm.
    const coordinates = points.map((p) => `${p.longitude.toFixed(6)},${p.latitude.toFixed(6)}`).join(";");
    const url = `${this.baseUrl}/table/v1/driving/${coordinates}?annotations=duration,distance`;
    let response: Response;
    try {
      response = await (this.options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(this.options.timeoutMs ?? 15_000) });
    } catch (error) {
      const reason = error instanceof Error && error.name === "TimeoutError" ? "did not answer in time" : `cannot be reached (${causeOf(error)})`;
      throw roadEngineDown(`The road engine at ${this.baseUrl} (OSRM_URL) ${reason}: no plan was made. Try again, or unset OSRM_URL to plan on straight lines.`);
    }
    let answer: OsrmTableAnswer;
    try {
      answer = (await response.json()) as OsrmTableAnswer;
    } catch {
      throw roadEngineWrong(`The road engine at ${this.baseUrl} (OSRM_URL) answered ${response.status} with something other than OSRM's JSON: no plan was made.`);
    }
    if (!response.ok || answer.code !== "Ok") {
      const said = [answer.code, answer.message].filter(Boolean).join(": ") || `HTTP ${response.status}`;
      throw roadEngineWrong(`The road engine at ${this.baseUrl} (OSRM_URL) refused the table of ${points.length} places (${said}): no plan was made.`);
    }
    return {
      durations: squareOf(answer.durations, points.length, "durations", this.baseUrl),
      distances: squareOf(answer.distances, points.length, "distances", this.baseUrl),
    };
  }
}

function causeOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** OSRM when OSRM_URL is set, straight lines otherwise. */
export function travelProviderFrom(config: { osrmUrl: string | null; detourFactor: number; speedKmh: number }): TravelMatrixProvider {
  return config.osrmUrl ? new OsrmTravel(config.osrmUrl) : new StraightLineTravel(config);
}
