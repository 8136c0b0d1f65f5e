import type { BraintreeConfig } from "./braintree-config.ts";
import { createBraintreeGateway } from "./braintree-gateway.ts";
import type { PaymentGateway } from "./gateway.ts";
import { SandboxGateway } from "./sandbox-gateway.ts";

export type { PaymentGateway } from "./gateway.ts";
export { isSandboxGateway } from "./sandbox-gateway.ts";

/**
 * Braintree when its three credentials are configured, else the local
 * sandbox gateway. Create one per process and share it: the sandbox keeps its
 * nonces and transactions in memory.
 */
export function createPaymentGateway(config: { braintree: BraintreeConfig | null }): PaymentGateway {
  return config.braintree ? createBraintreeGateway(config.braintree) : new SandboxGateway();
}
