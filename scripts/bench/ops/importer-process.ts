/**
 * The importer of the import benchmark in a process of its own (started by
 * startImporter in common.ts): the pharmacy's system that sends the
 * nightly file is not the couriers' phones. In the benchmark's own process,
 * building and reading each 1000-order batch (about 1 MB of JSON each way)
 * held the load generator's event loop for ~10–20 ms at a time, and every
 * courier call in flight then looked that much slower than the server made it.
 * Apart, it still shares the machine's two cores with everything else.
 *
 * It answers one import per message and stays up for the next, so an import
 * in rounds starts no process (tsx's start-up) while the couriers' baseline
 * is being measured; it ends when its parent disconnects.
 */
import { importOrders } from "./common.ts";

process.on("message", (message) => {
  const { url, options } = message as { url: string; options: Parameters<typeof importOrders>[1] };
  importOrders(url, options).then(
    (run) => process.send!({ run }),
    (error: unknown) => process.send!({ error: (error as Error).stack ?? String(error) }),
  );
});
process.once("disconnect", () => process.exit(0));
