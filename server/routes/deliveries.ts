import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import {
  DeliveryRequest,
  DeliveryResponse,
  FORM_FIELDS_MAX_BYTES,
  FORM_MAX_PARTS,
  SIGNATURE_MAX_BYTES,
} from "../../domain/contract/deliveries.ts";
import { PHOTO_FIELD, PHOTO_MAX_BYTES, PHOTO_SOURCE_MAX_PIXELS, PHOTO_SOURCE_MAX_SIDE } from "../../domain/delivery-photo.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { installMultipartForm } from "../http/multipart-form.ts";
import type { PaymentGateway } from "../payments/gateway.ts";
import { storeAnswerWithin } from "../http/idempotency.ts";
import { recordDeliveryAndSettleCards } from "../services/deliveries.ts";

export const deliveryRoutes =
  (deps: { db: Db; today: () => string; gateway: PaymentGateway }): FastifyPluginAsyncZod =>
  async (app) => {
    installMultipartForm(app, {
      fileBytes: SIGNATURE_MAX_BYTES,
      fieldBytes: FORM_FIELDS_MAX_BYTES,
      parts: FORM_MAX_PARTS,
      fileFields: ["delivery[signature][attachment][file]"],
      binaryFileFields: {
        [PHOTO_FIELD]: {
          maxBytes: PHOTO_MAX_BYTES,
          tooLarge: (bytes) => `The photo is ${Math.ceil(bytes / 1024)} KB; a photo of the drop-off may be at most ${PHOTO_MAX_BYTES / 1024} KB.`,
        },
      },
    });

    app.post(
      "/api/courier/deliveries",
      {
        schema: {
          summary: "Record a delivery: a failed attempt (JSON), a recipient submission or a completion (multipart form)",
          description:
            "JSON {delivery:{failure_reason, client_occurred_at, order_ids}} marks the orders delivery_attempted. " +
            "A multipart form with bracketed names (delivery[order_ids][], delivery[relationship_id], " +
            "delivery[signature][attachment][file] as image/svg+xml, …; _csrf_token as a field) delivers them. " +
            "Where nobody signs (No Recipient, contactless, a refusal reason), delivery[photo][attachment][file] may carry a photo of the drop-off: " +
            `JPEG, WebP or PNG (checked by its bytes), at most ${PHOTO_MAX_BYTES / 1024} KB and ` +
            `${PHOTO_SOURCE_MAX_PIXELS / 1_000_000} megapixels, ${PHOTO_SOURCE_MAX_SIDE} px a side (read from its header); stored re-encoded as the server's own JPEG, no metadata. ` +
            `Limits: signature ${SIGNATURE_MAX_BYTES / 1024} KB, fields ${FORM_FIELDS_MAX_BYTES / 1024} KB, ${FORM_MAX_PARTS} parts.`,
          tags: ["deliveries"],
          consumes: ["application/json", "multipart/form-data"],
          body: DeliveryRequest,
          response: {
            200: DeliveryResponse,
            400: ErrorBody,
            401: ErrorBody,
            403: ErrorBody,
            404: ErrorBody,
            409: ErrorBody,
            413: ErrorBody,
            415: ErrorBody,
          },
        },
      },
      async (request) => {
        const courierId = currentSession(request).courier.id;
        return recordDeliveryAndSettleCards({ db: deps.db, gateway: deps.gateway, log: request.log }, courierId, request.body.delivery, deps.today(), {
          idempotencyKey: request.idempotency?.key ?? null,
          // The answer a retry replays commits with the delivery (server/http/idempotency.ts).
          beforeCommit: (tx, answer) => storeAnswerWithin(tx, request, 200, answer),
        });
      },
    );
  };
