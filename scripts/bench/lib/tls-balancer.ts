import { execFileSync, spawn } from "node:child_process";
import { createHash, createPublicKey } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { ensureDebianTools } from "../../../tests/support/debian-packages.ts";
import { ROOT } from "./report.ts";
import { belowBrowserCommand, stopChildProcess } from "./server.ts";

/** A TLS certificate for 127.0.0.1, made for one bench run, and what the browser is told to trust. */
export interface BenchCertificate {
  keyFile: string;
  certFile: string;
  /** Chromium's flag that trusts this key alone (--ignore-certificate-errors-spki-list): no other certificate error is let through. */
  browserArg: string;
  remove(): void;
}

export function makeBenchCertificate(): BenchCertificate {
  ensureDebianTools([{ command: "openssl", debianPackage: "openssl" }]);
  const dir = mkdtempSync(path.join(tmpdir(), "rxc-bench-tls-"));
  const keyFile = path.join(dir, "key.pem");
  const certFile = path.join(dir, "cert.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "2",
    "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", keyFile, "-out", certFile,
  ], { stdio: "ignore" });
  const spki = createPublicKey(readFileSync(keyFile)).export({ type: "spki", format: "der" });
  const browserArg = `--ignore-certificate-errors-spki-list=${createHash("sha256").update(spki).digest("base64")}`;
  return { keyFile, certFile, browserArg, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TlsBalancer {
  /** https://127.0.0.1:port: the origin the browser loads. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Production's load balancer in front of one bench server (decision 0046): TLS and HTTP/2 to the browser,
 * HTTP/1.1 to the server. Under the idle policy, as the servers are: across the network, it takes none of
 * the phone's cores (decision 0045).
 */
export async function startTlsBalancer(upstreamPort: number, certificate: BenchCertificate, { belowBrowser = true } = {}): Promise<TlsBalancer> {
  const script = path.join(ROOT, "scripts/bench/lib/tls-balancer-process.ts");
  const nodeArgs = ["--import", "tsx", script, String(upstreamPort), certificate.keyFile, certificate.certFile];
  const [command, args] = belowBrowser ? belowBrowserCommand(nodeArgs) : [process.execPath, nodeArgs];
  const child = spawn(command, args, { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once("line", (line) => resolve(Number(line)));
    child.once("exit", (code) => reject(new Error(`the TLS balancer exited with ${code}`)));
  });
  return {
    url: `https://127.0.0.1:${port}`,
    stop: () => stopChildProcess(child),
  };
}
