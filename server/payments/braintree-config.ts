/** The Braintree account the server charges cards through (docs/payments.md). */
export interface BraintreeConfig {
  merchantId: string;
  publicKey: string;
  privateKey: string;
  environment: "sandbox" | "production";
}

/**
 * BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY, BRAINTREE_PRIVATE_KEY and
 * BRAINTREE_ENVIRONMENT (sandbox unless told). None set: null, and the local
 * sandbox gateway is used. Some but not all set is a deployment mistake: it
 * fails at start rather than quietly taking "payments" through the sandbox.
 */
export function braintreeConfigFrom(env: NodeJS.ProcessEnv): BraintreeConfig | null {
  const merchantId = env.BRAINTREE_MERCHANT_ID?.trim() || "";
  const publicKey = env.BRAINTREE_PUBLIC_KEY?.trim() || "";
  const privateKey = env.BRAINTREE_PRIVATE_KEY?.trim() || "";
  const set = [merchantId, publicKey, privateKey].filter(Boolean).length;
  if (set === 0) return null;
  if (set < 3) throw new Error("Set all of BRAINTREE_MERCHANT_ID, BRAINTREE_PUBLIC_KEY and BRAINTREE_PRIVATE_KEY, or none of them.");
  const environment = env.BRAINTREE_ENVIRONMENT?.trim() || "sandbox";
  if (environment !== "sandbox" && environment !== "production") {
    throw new Error(`BRAINTREE_ENVIRONMENT must be sandbox or production, not "${environment}".`);
  }
  return { merchantId, publicKey, privateKey, environment };
}
