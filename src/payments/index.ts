import type { CardClient, CardClientOptions } from "./card-gateway.ts";

export type { CardClient, CardClientOptions, CardFieldName, CardFieldValidity, CardNonce, PostJson } from "./card-gateway.ts";
export { allCardFieldsValid, CARD_FAILURE } from "./card-gateway.ts";
export { authorizeCard, type AuthorizeCardInput, type PutJson } from "./authorize-card.ts";

/**
 * Sets up the card fields of the gateway the server names (GET
 * /api/courier/payments/client_token): Braintree's hosted fields, or the
 * local sandbox's own inputs. Each is its own chunk, loaded only when the
 * courier chooses to pay by card. Rejects with an ApiFailure coded
 * CARD_FAILURE.setupFailed (spec §8: the payment method goes back to empty).
 */
export async function setUpCardClient(options: CardClientOptions): Promise<CardClient> {
  if (options.gateway === "braintree") {
    const { setUpBraintreeHostedFields } = await import("./braintree-hosted-fields.ts");
    return setUpBraintreeHostedFields(options);
  }
  const { setUpLocalCardFields } = await import("./local-card-fields.ts");
  return setUpLocalCardFields(options);
}
