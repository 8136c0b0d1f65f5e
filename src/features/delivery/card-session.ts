import type { ClientTokenResponse } from "../../../domain/contract/payments.ts";
import type { AuthorizeCardInput } from "../../../domain/payment-step.ts";
import { CARD_FAILURE, type CardClient, type CardClientOptions, type CardFieldName, type PostJson } from "../../payments/index.ts";
import { cardFailure } from "../../payments/card-gateway.ts";

/**
 * The card fields of one payment step. The payment machine's actors
 * (setUpCardClient, authorizeCard) and the view meet here: the view lends the
 * three empty containers it renders, the actor sets the gateway's fields up in
 * them with a fresh client token, and authorization tokenizes what is in them.
 * Card data stays inside the fields; this object only holds the client.
 */

export type CardContainers = Record<CardFieldName, HTMLElement>;

export interface CardSessionDeps {
  fetchClientToken(): Promise<ClientTokenResponse>;
  setUpCardClient(options: CardClientOptions): Promise<CardClient>;
  postJson: PostJson;
  authorize(card: CardClient, input: AuthorizeCardInput): Promise<{ transaction_id: string }>;
  labels?: CardClientOptions["labels"];
  /** How long set-up waits for the view to render the containers. */
  containerTimeoutMs?: number;
}

export interface CardSession {
  /** The view rendered the containers (and will keep them until detach). */
  attach(containers: CardContainers): void;
  /** The containers are going away: the fields are torn down. */
  detach(): void;
  /** The payment machine's setUpCardClient: rejects with an ApiFailure (spec §8: the method resets). */
  setUp(): Promise<void>;
  /** The payment machine's authorizeCard. */
  authorize(input: AuthorizeCardInput): Promise<{ transaction_id: string }>;
  /** The fields set up in the containers, if any. */
  client(): CardClient | null;
}

export function createCardSession(deps: CardSessionDeps): CardSession {
  let containers: CardContainers | null = null;
  let waiting: ((containers: CardContainers) => void)[] = [];
  let current: CardClient | null = null;
  // Bumped on every detach: a set-up that finishes for containers already gone tears its fields down.
  let generation = 0;

  const teardown = () => {
    const client = current;
    current = null;
    void client?.teardown();
  };

  const containersReady = () =>
    new Promise<CardContainers>((resolve, reject) => {
      if (containers) return resolve(containers);
      const timer = setTimeout(() => {
        waiting = waiting.filter((waiter) => waiter !== ready);
        reject(cardFailure("other", CARD_FAILURE.setupFailed, "The card fields are not on screen."));
      }, deps.containerTimeoutMs ?? 5_000);
      const ready = (found: CardContainers) => {
        clearTimeout(timer);
        resolve(found);
      };
      waiting.push(ready);
    });

  return {
    attach(found) {
      containers = found;
      const waiters = waiting;
      waiting = [];
      waiters.forEach((resolve) => resolve(found));
    },
    detach() {
      generation += 1;
      containers = null;
      teardown();
    },
    async setUp() {
      teardown();
      const { client_token: clientToken, gateway } = await deps.fetchClientToken();
      const target = await containersReady();
      const started = generation;
      const client = await deps.setUpCardClient({ clientToken, gateway, containers: target, postJson: deps.postJson, labels: deps.labels });
      if (started !== generation || containers !== target) {
        await client.teardown();
        throw cardFailure("other", CARD_FAILURE.setupFailed, "The card fields were removed while they were being set up.");
      }
      current = client;
    },
    async authorize(input) {
      if (!current) throw cardFailure("other", CARD_FAILURE.setupFailed, "The card fields are not set up.");
      return deps.authorize(current, input);
    },
    client: () => current,
  };
}
