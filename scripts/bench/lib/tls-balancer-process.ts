/**
 * The bench's stand-in for production's load balancer (docs/deployment.md): it ends TLS, speaks HTTP/2
 * to the browser, as a phone reaches production, and HTTP/1.1 to one upstream server (decision 0046).
 * Run as its own process (tls-balancer.ts starts it) so that it can run under the servers' idle policy.
 * argv: upstream port, key file, certificate file. Prints the port it listens on.
 */
import { readFileSync } from "node:fs";
import { createSecureServer } from "node:http2";
import proxy from "http2-proxy";

const [upstreamPort, keyFile, certFile] = process.argv.slice(2);
if (!upstreamPort || !keyFile || !certFile) throw new Error("usage: tls-balancer-process.ts <upstream port> <key file> <cert file>");

// HTTP/2 only: a browser that did not negotiate it fails the run instead of measuring HTTP/1.1 unnoticed.
const server = createSecureServer({ key: readFileSync(keyFile), cert: readFileSync(certFile), allowHTTP1: false });
server.on("request", (req, res) => {
  proxy.web(
    req,
    res,
    { hostname: "127.0.0.1", port: Number(upstreamPort) },
    (error) => {
      if (!error) return;
      console.error("balancer:", error.message);
      if (!res.headersSent) res.writeHead(502);
      res.end();
    },
  );
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : "");
});
