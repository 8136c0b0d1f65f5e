import IMask from "imask";
import { isApiFailure, toApiFailure } from "../../domain/api-failure.ts";
import { cardBrand, cardDigits, isValidCardNumber, isValidCvv, isValidExpiry, type CardBrand } from "../../domain/card-rules.ts";
import type { TokenizeResponse } from "../../domain/contract/payments.ts";
import {
  allCardFieldsValid,
  CARD_FAILURE,
  cardFailure,
  DEFAULT_LABELS,
  resolveContainer,
  sameValidity,
  validityListeners,
  type CardClient,
  type CardClientOptions,
  type CardFieldName,
  type CardFieldValidity,
} from "./card-gateway.ts";

/**
 * The card fields of the local sandbox gateway: three real inputs the page
 * owns (where Braintree would put iframes), masked, checked with the same
 * rules as the sandbox server (domain/card-rules.ts), and tokenized against
 * POST /api/payments/sandbox/tokenize. The card data goes to our own server
 * only in the sandbox; in production Braintree's hosted fields keep it in
 * Braintree's iframes.
 */

export const SANDBOX_TOKENIZE_PATH = "payments/sandbox/tokenize";

/** Digit groups as printed on the card: 4-6-5 for American Express, 4-6-4 for Diners Club, 4-4-4-4(-3) otherwise. */
function numberPattern(brand: CardBrand | null): string {
  if (brand === "american-express") return "0000 000000 00000";
  if (brand === "diners-club") return "0000 000000 0000";
  return "0000 0000 0000 0000 000";
}

interface FieldSpec {
  name: string;
  autocomplete: string;
  placeholder: string;
}

const SPECS: Record<CardFieldName, FieldSpec> = {
  number: { name: "cardnumber", autocomplete: "cc-number", placeholder: "1234 5678 9012 3456" },
  cvv: { name: "cvc", autocomplete: "cc-csc", placeholder: "123" },
  expiration: { name: "cc-exp", autocomplete: "cc-exp", placeholder: "MM/YY" },
};

/** What this module needs of an imask InputMask, whatever its options. */
interface FieldMask {
  readonly value: string;
  readonly unmaskedValue: string;
  readonly masked: { readonly isComplete: boolean };
  on(event: "accept", handler: () => void): unknown;
  destroy(): void;
}

function createInput(field: CardFieldName, label: string): HTMLInputElement {
  const input = document.createElement("input");
  const spec = SPECS[field];
  input.type = "text";
  input.inputMode = "numeric";
  input.name = spec.name;
  input.autocomplete = spec.autocomplete as AutoFill;
  input.placeholder = spec.placeholder;
  input.spellcheck = false;
  input.required = true;
  input.setAttribute("aria-label", label);
  input.className = `card-field__input card-field__input--${field}`;
  input.dataset.cardField = field;
  return input;
}

/** Checked by hand rather than with the zod contract, which would add zod's weight to this chunk. */
function isTokenizeResponse(value: unknown): value is TokenizeResponse {
  if (typeof value !== "object" || value === null) return false;
  const { nonce, details } = value as { nonce?: unknown; details?: { card_type?: unknown; last_four?: unknown } };
  return typeof nonce === "string" && typeof details?.card_type === "string" && typeof details.last_four === "string";
}

export async function setUpLocalCardFields(options: CardClientOptions): Promise<CardClient> {
  const labels = { ...DEFAULT_LABELS, ...options.labels };
  let containers: Record<CardFieldName, HTMLElement>;
  try {
    containers = {
      number: resolveContainer(options.containers.number),
      cvv: resolveContainer(options.containers.cvv),
      expiration: resolveContainer(options.containers.expiration),
    };
  } catch (error) {
    throw cardFailure("other", CARD_FAILURE.setupFailed, error instanceof Error ? error.message : String(error));
  }

  const inputs: Record<CardFieldName, HTMLInputElement> = {
    number: createInput("number", labels.number),
    cvv: createInput("cvv", labels.cvv),
    expiration: createInput("expiration", labels.expiration),
  };
  for (const field of ["number", "cvv", "expiration"] as const) containers[field].append(inputs[field]);

  let pattern = numberPattern(null);
  const numberMask = IMask(inputs.number, { mask: pattern });
  const masks: Record<CardFieldName, FieldMask> = {
    number: numberMask,
    cvv: IMask(inputs.cvv, { mask: "0000" }),
    expiration: IMask(inputs.expiration, {
      mask: "MM/YY",
      blocks: {
        MM: { mask: IMask.MaskedRange, from: 1, to: 12, maxLength: 2, autofix: "pad" },
        YY: { mask: IMask.MaskedRange, from: 0, to: 99, maxLength: 2 },
      },
    }),
  };

  const listeners = validityListeners();
  let current: CardFieldValidity = { number: false, cvv: false, expiration: false };
  let tornDown = false;

  const compute = (): CardFieldValidity => {
    const digits = cardDigits(masks.number.unmaskedValue);
    return {
      number: isValidCardNumber(digits),
      cvv: isValidCvv(masks.cvv.unmaskedValue, cardBrand(digits)),
      // The device's today: a card is good through its expiry month.
      expiration: isValidExpiry(masks.expiration.value, new Date()),
    };
  };

  /** A field is marked invalid once it is complete or left, never while the courier is still typing it. */
  const markInvalid = (field: CardFieldName, validity: CardFieldValidity, left: boolean) => {
    const value = masks[field].unmaskedValue;
    if (value === "" || validity[field]) inputs[field].removeAttribute("aria-invalid");
    else if (left || masks[field].masked.isComplete) inputs[field].setAttribute("aria-invalid", "true");
  };

  const update = (left: CardFieldName | null) => {
    const brandPattern = numberPattern(cardBrand(masks.number.unmaskedValue));
    if (brandPattern !== pattern) {
      pattern = brandPattern;
      numberMask.updateOptions({ mask: pattern });
    }
    const next = compute();
    for (const field of ["number", "cvv", "expiration"] as const) markInvalid(field, next, left === field);
    if (!sameValidity(next, current)) {
      current = next;
      listeners.emit(current);
    }
  };

  const onBlur: Record<CardFieldName, () => void> = {
    number: () => update("number"),
    cvv: () => update("cvv"),
    expiration: () => update("expiration"),
  };
  for (const field of ["number", "cvv", "expiration"] as const) {
    masks[field].on("accept", () => update(null));
    inputs[field].addEventListener("blur", onBlur[field]);
  }

  return {
    gateway: "sandbox",
    validity: () => ({ ...current }),
    onValidityChange: (listener) => listeners.add(listener),

    async tokenize() {
      if (tornDown) throw cardFailure("other", CARD_FAILURE.setupFailed, "The card fields were removed.");
      const validity = compute();
      if (!allCardFieldsValid(validity)) {
        throw cardFailure("refused", CARD_FAILURE.fieldsInvalid, "Check the card number, CVV and expiration date.");
      }
      let response: unknown;
      try {
        response = await options.postJson(SANDBOX_TOKENIZE_PATH, {
          number: cardDigits(masks.number.unmaskedValue),
          cvv: masks.cvv.unmaskedValue,
          expiration_date: masks.expiration.value,
        });
      } catch (error) {
        throw isApiFailure(error) ? error : toApiFailure(error);
      }
      if (!isTokenizeResponse(response)) {
        throw cardFailure("other", CARD_FAILURE.tokenizationFailed, "The gateway's answer was not a card nonce.");
      }
      return { nonce: response.nonce, details: { card_type: response.details.card_type, last_four: response.details.last_four } };
    },

    async teardown() {
      if (tornDown) return;
      tornDown = true;
      listeners.clear();
      for (const field of ["number", "cvv", "expiration"] as const) {
        inputs[field].removeEventListener("blur", onBlur[field]);
        masks[field].destroy();
        inputs[field].remove();
      }
    },
  };
}
