import type { Socket } from "node:net";
import type { FastifyInstance } from "fastify";

/**
 * Shutting down (SIGTERM, app.close()) ends promptly (issue 27). Node's
 * server.close() waits for every connection to end and closes only those it
 * counts as idle, and a connection that was opened but has not sent a request
 * yet (a browser's or HTTP client's spare connection; one left after a
 * refused or aborted event stream) is not counted idle: close then waited
 * for the client to give it up, a minute or more. At close, every
 * connection with no call in progress is closed now, and one whose call
 * ends afterwards as soon as that call's answer has gone; calls in progress
 * finish as before (open event streams are ended by their own route,
 * server/ops/routes/events.ts).
 */
export function installPromptClose(app: FastifyInstance): void {
  const calls = new Map<Socket, number>();
  let closing = false;
  app.server.on("connection", (socket: Socket) => {
    calls.set(socket, 0);
    socket.once("close", () => calls.delete(socket));
  });
  app.server.on("request", (request, response) => {
    const socket = request.socket;
    calls.set(socket, (calls.get(socket) ?? 0) + 1);
    response.once("close", () => {
      const left = (calls.get(socket) ?? 1) - 1;
      calls.set(socket, left);
      // The answer is written; no further call on this connection while closing.
      if (closing && left === 0) socket.end();
    });
  });
  app.addHook("preClose", async () => {
    closing = true;
    for (const [socket, inProgress] of calls) if (inProgress === 0) socket.destroy();
  });
}
