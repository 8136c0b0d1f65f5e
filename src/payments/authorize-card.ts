import { isApiFailure, toApiFailure } from "../../domain/api-failure.ts";
import type { AuthorizeRequest, AuthorizeResponse } from "../../domain/contract/payments.ts";
import type { AuthorizeCardInput } from "../../domain/payment-step.ts";
import { cardFailure, type CardClient } from "./card-gateway.ts";

/** The app's JSON PUT to the API (cookie + CSRF); `path` is relative to /api. */
export type PutJson = (path: string, body: unknown) => Promise<unknown>;

/** The payment machine's `authorizeCard` actor input (one type, in domain/payment-step.ts), plus the receipt address. */
export type { AuthorizeCardInput };
type AuthorizeCardRequest = AuthorizeCardInput & {
  /** For the gateway's receipt, if the recipient gave one. */
  email?: string | null;
};

/** Checked by hand rather than with the zod contract: this module loads with the payment step and zod is large. */
function isAuthorizeResponse(value: unknown): value is AuthorizeResponse {
  return typeof value === "object" && value !== null && typeof (value as { transaction_id?: unknown }).transaction_id === "string";
}

/**
 * Tokenizes the card in the fields and asks the server to authorize the total
 * (PUT /api/courier/orders/{id}/authorize, spec §7). Rejects with an
 * ApiFailure: the card client's codes, or the server's (403 card_declined,
 * 503 processor_unavailable, 400 amount_mismatch, 409 …).
 */
export async function authorizeCard(card: CardClient, putJson: PutJson, input: AuthorizeCardRequest): Promise<{ transaction_id: string }> {
  const { nonce } = await card.tokenize();
  const body: AuthorizeRequest = {
    delivery: {
      order_payment: {
        payment_type: input.payment_type,
        token: nonce,
        email: input.email ?? null,
        new_copay: input.new_copay,
        total: input.total,
        braintree_transaction_id: null,
      },
    },
  };
  let response: unknown;
  try {
    response = await putJson(`courier/orders/${input.order_id}/authorize`, body);
  } catch (error) {
    throw isApiFailure(error) ? error : toApiFailure(error);
  }
  if (!isAuthorizeResponse(response)) throw cardFailure("other", "invalid_response", "The server's answer had no transaction id.");
  return { transaction_id: response.transaction_id };
}
