import type { ChargeData, ClientTokenResponse, SaveChargeDataResponse } from "../../domain/contract/payments.ts";
import { authorizeCard, type AuthorizeCardInput, type CardClient, type PostJson, type PutJson } from "../payments/index.ts";
import { call } from "./client.ts";

/**
 * The card payment calls of spec §7 (docs/payments.md). Card data never
 * passes through here: the card client tokenizes it, these calls carry the
 * nonce, amounts and the transaction id.
 */

/** JSON POST to /api with the cookie and CSRF token; rejects with an ApiFailure. */
export const postJson: PostJson = (path, body) => call((http) => http.post(path, { json: body }).json());

/** JSON PUT to /api with the cookie and CSRF token; rejects with an ApiFailure. */
export const putJson: PutJson = (path, body) => call((http) => http.put(path, { json: body }).json());

/** GET /api/courier/payments/client_token: what the card fields are set up with, and which gateway issued it. */
export function fetchClientToken(): Promise<ClientTokenResponse> {
  return call((http) => http.get("courier/payments/client_token", { cache: "no-store" }).json<ClientTokenResponse>());
}

/** Tokenizes the card in the fields and PUT /api/courier/orders/{id}/authorize → {transaction_id}. */
export function authorizeOrderCard(card: CardClient, input: AuthorizeCardInput): Promise<{ transaction_id: string }> {
  return authorizeCard(card, putJson, input);
}

/** PUT /api/courier/orders/{id}: "delivery with charge data" (spec §7). */
export function saveChargeData(orderId: number, chargeData: ChargeData): Promise<SaveChargeDataResponse> {
  return call((http) =>
    http.put(`courier/orders/${orderId}`, { json: { delivery: { charge_data: chargeData } } }).json<SaveChargeDataResponse>(),
  );
}
