import type { AddressInfo } from "node:net";
import { runOps } from "../../scripts/ops/cli.ts";
import { TEST_OPS_KEY, type OpsContext } from "./ops-harness.ts";

/**
 * `npm run ops -- …` against the suite's API, listening on a port (started on
 * the first call): what the command printed, its errors and its exit status.
 */
export function opsCli(ctx: () => OpsContext) {
  return async (args: string[]) => {
    if (!ctx().app.server.listening) await ctx().app.listen({ port: 0, host: "127.0.0.1" });
    const url = `http://127.0.0.1:${(ctx().app.server.address() as AddressInfo).port}`;
    const out: string[] = [];
    const err: string[] = [];
    const status = await runOps(args, { env: { RXC_URL: url, RXC_KEY: TEST_OPS_KEY }, out: (text) => out.push(text), err: (text) => err.push(text) });
    return { status, out: out.join("\n"), err: err.join("\n") };
  };
}
