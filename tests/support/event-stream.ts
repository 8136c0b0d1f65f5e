/** A Server-Sent Events client for the API tests (GET /api/ops/v1/events over a real socket). */
export interface ReceivedEvent {
  id: number;
  type: string;
  data: { order?: { id: number; pharmacy_id: number; status: string; courier_id: number | null }; [key: string]: unknown };
}

export interface EventStreamClient {
  status: number;
  contentType: string | null;
  events: ReceivedEvent[];
  /** Resolves once an event matching `match` has come (or throws after `timeoutMs`). */
  waitFor(match: (event: ReceivedEvent) => boolean, what: string, timeoutMs?: number): Promise<ReceivedEvent>;
  /** Resolves once the server ended the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openEventStream(baseUrl: string, headers: Record<string, string>, path = "/api/ops/v1/events"): Promise<EventStreamClient> {
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}${path}`, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const events: ReceivedEvent[] = [];
  const waiters = new Set<() => void>();
  let endedResolve: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (endedResolve = resolve));
  if (response.ok && response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf("\n\n")) !== -1) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const id = /^id: (\d+)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (id && data) {
              const body = JSON.parse(data) as { type: string; data: ReceivedEvent["data"] };
              events.push({ id: Number(id), type: body.type, data: body.data });
              for (const wake of waiters) wake();
            }
          }
        }
      } catch {
        // aborted by close()
      }
      endedResolve();
    })();
  } else {
    await response.body?.cancel();
    endedResolve();
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    events,
    ended,
    waitFor(match, what, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${what} within ${timeoutMs} ms; got ${events.map((e) => `${e.id}:${e.type}`).join(", ") || "nothing"}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
