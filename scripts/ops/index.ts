import { runOps } from "./cli.ts";

/** `npm run ops -- <command>`: see docs/operations.md. */
const status = await runOps(process.argv.slice(2), {
  env: process.env,
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(text.startsWith("\r") ? text : `${text}\n`),
  errIsTty: process.stderr.isTTY,
});
process.exitCode = status;
