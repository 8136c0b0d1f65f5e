import Fastify from "fastify";

/** The yardstick: a bare Fastify hello-world (default options, no logger), on the port the benchmark gives. */
const app = Fastify();
app.get("/", async () => ({ hello: "world" }));
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT) });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
