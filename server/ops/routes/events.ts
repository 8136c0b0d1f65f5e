import type { Socket } from "node:net";
import { PassThrough } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import { OPS_API_PREFIX } from "../../../domain/contract/ops.ts";
import { HttpError } from "../../http/errors.ts";
import type { EventHub, StreamedEvent } from "../../services/events/hub.ts";
import { opsCaller, pharmacyScope } from "../auth.ts";
import type { StaffStreamEnds } from "../staff-stream-ends.ts";
import { OPS_TAG, opsRefusals, opsSecurity } from "./shared.ts";

export interface EventStreamOptions {
  hub: EventHub;
  /** Ends a console session's streams when the session ends, at once (logout, deactivation, expiry; any process). */
  sessionEnds: StaffStreamEnds;
  /** Streams open at once in this process (MAX_EVENT_STREAMS); past it, 503. */
  maxStreams: number;
  /** How often an idle stream sends a comment (so proxies and browsers keep it open). */
  keepaliveMs: number;
}

const LastEventId = z
  .string()
  .regex(/^\d{1,15}$/, "must be the id of an event this stream sent")
  .transform(Number);

const EVENT_STREAM_DESCRIPTION = [
  "Server-Sent Events (text/event-stream): every change of the day as it commits in any API process —",
  "the webhook events, order.unassigned, order.updated and payment.failed — each as `id: <position>` and",
  "`data: {type, timestamp, data}`. Scoped like every read: a pharmacy key's or pharmacist's stream carries",
  "their pharmacy's events only. Reconnect with Last-Event-ID (or ?last_event_id=) to get what was missed, in order.",
].join(" ");

/**
 * GET /api/ops/v1/events (issue 27): the dispatch console's live stream. It
 * holds no load-shedding slot (an open stream never crowds out a courier's
 * call: server/http/load-shedding.ts) and has a cap of its own. A console
 * session's stream ends the moment the session does (logout, deactivation,
 * expiry: server/ops/staff-stream-ends.ts).
 */
export const opsEventRoutes =
  (deps: EventStreamOptions): FastifyPluginAsyncZod =>
  async (app) => {
    const open = new Set<PassThrough>();
    const sockets = new Set<Socket>();
    // Shutting down: every stream ends and its connection closes (the browser reconnects to another process with Last-Event-ID).
    app.addHook("preClose", async () => {
      for (const stream of open) stream.end();
      for (const socket of sockets) socket.destroy();
    });

    app.get(
      `${OPS_API_PREFIX}/events`,
      {
        config: { streaming: true },
        // A HEAD of an endless stream would never end: GET only.
        exposeHeadRoute: false,
        schema: {
          summary: EVENT_STREAM_DESCRIPTION,
          tags: [OPS_TAG],
          security: opsSecurity,
          querystring: z.object({ last_event_id: LastEventId.optional() }).strict(),
          headers: z.object({ "last-event-id": LastEventId.optional() }).passthrough(),
          response: { 200: z.string().describe("text/event-stream"), ...opsRefusals, 503: opsRefusals[429] },
        },
      },
      async (request, reply) => {
        const caller = opsCaller(request);
        if (deps.hub.openStreams >= deps.maxStreams) {
          throw new HttpError(503, "busy", "Too many live streams are open. Please try again in a moment.", undefined, { "retry-after": "5" });
        }
        const after = request.headers["last-event-id"] ?? request.query.last_event_id ?? null;
        const stream = new PassThrough();
        const write = (text: string) => {
          if (!stream.writableEnded) stream.write(text);
        };
        // The browser reconnects 2 s after a drop, sending the last id it saw.
        write("retry: 2000\n: live\n\n");
        const send = (events: StreamedEvent[]) => write(events.map((event) => `id: ${event.position}\ndata: ${event.body}\n\n`).join(""));
        const staffSession = caller.staff?.sessionHash ?? null;
        const unwatch = staffSession ? await deps.sessionEnds.watch(staffSession, () => stream.end()) : () => undefined;
        const unsubscribe = await deps.hub.subscribe({ scope: pharmacyScope(caller), send }, after).catch((error: unknown) => {
          unwatch();
          throw error;
        });
        open.add(stream);
        const socket = request.raw.socket;
        if (socket && !sockets.has(socket)) {
          sockets.add(socket);
          socket.once("close", () => sockets.delete(socket));
        }
        const keepalive = setInterval(() => write(": keep-alive\n\n"), deps.keepaliveMs);
        const done = () => {
          clearInterval(keepalive);
          unwatch();
          unsubscribe();
          open.delete(stream);
          stream.end();
        };
        reply.raw.on("close", done);
        stream.on("close", done);
        return reply
          .header("content-type", "text/event-stream; charset=utf-8")
          .header("cache-control", "no-store")
          .header("x-accel-buffering", "no")
          // The 200 schema documents the stream's text for the OpenAPI document; a stream is sent as it is, never serialized.
          .send(stream as unknown as string);
      },
    );
  };
