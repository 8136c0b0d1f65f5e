import type { Client } from "braintree-web/client";
import type { HostedFields, HostedFieldsState } from "braintree-web/hosted-fields";
import type { ApiFailure } from "../../domain/api-failure.ts";
import {
  CARD_FAILURE,
  cardFailure,
  DEFAULT_LABELS,
  resolveContainer,
  sameValidity,
  validityListeners,
  type CardClient,
  type CardClientOptions,
  type CardFieldValidity,
} from "./card-gateway.ts";

/**
 * Braintree's hosted fields: the card number, CVV and expiry live in
 * Braintree's iframes (assets.braintreegateway.com), so card data never
 * touches this page or our server; only the nonce does. braintree-web is
 * imported here, on demand, so it never weighs on the first screen.
 */

/** A CommonJS module through Vite's interop may arrive as its exports or under `default`. */
function exportsOf<T extends object>(module: T | { default: T }): T {
  return "default" in module && module.default ? module.default : (module as T);
}

async function loadBraintree() {
  const [client, hostedFields] = await Promise.all([import("braintree-web/client"), import("braintree-web/hosted-fields")]);
  return { client: exportsOf(client), hostedFields: exportsOf(hostedFields) };
}

const errorCode = (error: unknown): string => (error && typeof error === "object" && "code" in error ? String(error.code) : "");
const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Braintree's network failures (client setup or tokenization): spec §8's 'Cannot contact the gateway at this time.' */
const NETWORK_CODES = new Set(["CLIENT_GATEWAY_NETWORK", "CLIENT_REQUEST_TIMEOUT", "HOSTED_FIELDS_TOKENIZATION_NETWORK_ERROR", "HOSTED_FIELDS_TIMEOUT"]);

export function setupFailure(error: unknown): ApiFailure {
  const kind = NETWORK_CODES.has(errorCode(error)) ? "network" : "other";
  return cardFailure(kind, CARD_FAILURE.setupFailed, errorMessage(error));
}

export function tokenizeFailure(error: unknown): ApiFailure {
  const code = errorCode(error);
  if (NETWORK_CODES.has(code)) return cardFailure("network", CARD_FAILURE.gatewayUnreachable, errorMessage(error));
  if (code === "HOSTED_FIELDS_FIELDS_EMPTY" || code === "HOSTED_FIELDS_FIELDS_INVALID") {
    return cardFailure("refused", CARD_FAILURE.fieldsInvalid, "Check the card number, CVV and expiration date.");
  }
  if (code.startsWith("HOSTED_FIELDS_")) {
    // Braintree refused the card itself (CVV verification, duplicate, failed tokenization): spec §8's 403 text fits.
    return cardFailure("forbidden", CARD_FAILURE.tokenizationFailed, errorMessage(error));
  }
  return cardFailure("other", CARD_FAILURE.tokenizationFailed, errorMessage(error));
}

function validityOf(state: HostedFieldsState): CardFieldValidity {
  return { number: state.fields.number.isValid, cvv: state.fields.cvv.isValid, expiration: state.fields.expirationDate.isValid };
}

/** Inside the iframes: readable in sunlight, and 16px so iOS does not zoom on focus. */
const STYLES = {
  input: { "font-size": "16px", "font-family": "system-ui, sans-serif", color: "#111" },
  ".invalid": { color: "#b00020" },
};

export async function setUpBraintreeHostedFields(options: CardClientOptions): Promise<CardClient> {
  const labels = { ...DEFAULT_LABELS, ...options.labels };
  let client: Client;
  let fields: HostedFields;
  try {
    const braintree = await loadBraintree();
    client = await braintree.client.create({ authorization: options.clientToken });
    fields = await braintree.hostedFields.create({
      client,
      styles: STYLES,
      fields: {
        number: { container: resolveContainer(options.containers.number), internalLabel: labels.number, placeholder: "1234 5678 9012 3456" },
        cvv: { container: resolveContainer(options.containers.cvv), internalLabel: labels.cvv, placeholder: "123" },
        expirationDate: { container: resolveContainer(options.containers.expiration), internalLabel: labels.expiration, placeholder: "MM/YY" },
      },
    });
  } catch (error) {
    throw setupFailure(error);
  }

  const listeners = validityListeners();
  let current = validityOf(fields.getState());
  const onValidity = (state: HostedFieldsState) => {
    const next = validityOf(state);
    if (sameValidity(next, current)) return;
    current = next;
    listeners.emit(current);
  };
  fields.on("validityChange", onValidity);
  let tornDown = false;

  return {
    gateway: "braintree",
    validity: () => ({ ...current }),
    onValidityChange: (listener) => listeners.add(listener),

    async tokenize() {
      try {
        const payload = await fields.tokenize();
        return { nonce: payload.nonce, details: { card_type: payload.details.cardType, last_four: payload.details.lastFour } };
      } catch (error) {
        throw tokenizeFailure(error);
      }
    },

    async teardown() {
      if (tornDown) return;
      tornDown = true;
      listeners.clear();
      fields.off("validityChange", onValidity);
      await fields.teardown().catch(() => undefined);
      // With a callback braintree-web's teardown reports through it (its typings claim a promise too).
      await new Promise<void>((resolve) => void client.teardown(() => resolve()));
    },
  };
}
