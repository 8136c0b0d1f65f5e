import { isApiFailure } from "../../../domain/api-failure.ts";
import { opsRequest } from "./http.ts";

export interface ConsolePharmacy {
  id: number;
  name: string;
}

/**
 * The pharmacies a screen may choose among: a dispatcher's, every one
 * (GET /api/ops/v1/pharmacies); a pharmacist's, their own (they may not list
 * pharmacies: theirs is named by one of its orders, else by its number).
 */
export async function staffPharmacies(role: "dispatcher" | "pharmacist", pharmacyId: number | null): Promise<ConsolePharmacy[]> {
  if (role === "dispatcher") {
    const body = (await (await opsRequest("GET", "pharmacies")).json()) as { pharmacies: ConsolePharmacy[] };
    return body.pharmacies.map(({ id, name }) => ({ id, name }));
  }
  const id = pharmacyId!;
  try {
    const page = (await (await opsRequest("GET", `orders?limit=1`)).json()) as { orders: { pharmacy: ConsolePharmacy }[] };
    const name = page.orders[0]?.pharmacy.name;
    return [{ id, name: name ?? `Pharmacy ${id}` }];
  } catch (error) {
    if (isApiFailure(error) && error.status !== 401) return [{ id, name: `Pharmacy ${id}` }];
    throw error;
  }
}
