import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { ErrorBody } from "../../domain/contract/common.ts";
import { FORM_FIELDS_MAX_BYTES, FORM_MAX_PARTS, SIGNATURE_MAX_BYTES } from "../../domain/contract/deliveries.ts";
import { PharmacyIdParams } from "../../domain/contract/pickup.ts";
import { ReturnRequest, ReturnResponse } from "../../domain/contract/returns.ts";
import { currentSession } from "../auth/plugin.ts";
import type { Db } from "../db/client.ts";
import { installMultipartForm } from "../http/multipart-form.ts";
import { recordReturn } from "../services/returns.ts";

/** Returns to the pharmacy with the staff signature (spec §4 reconcile signature, §7). */
export const returnRoutes =
  (deps: { db: Db; today: () => string }): FastifyPluginAsyncZod =>
  async (app) => {
    // The same limits as a delivery's signature form: one small SVG and a few text fields.
    installMultipartForm(app, {
      fileBytes: SIGNATURE_MAX_BYTES,
      fieldBytes: FORM_FIELDS_MAX_BYTES,
      parts: FORM_MAX_PARTS,
      fileFields: ["signature[attachment][file]"],
    });

    app.post(
      "/api/courier/pharmacies/:id/returns",
      {
        schema: {
          summary: "Return undelivered items, cash and checks to a pharmacy with the staff signature",
          description:
            "Multipart form (spec §7 Reconcile signature): recipient_first_name, recipient_last_name, " +
            "signature[attachment][file] (signature.svg, image/svg+xml), courier_id, pharmacy_id, cash_collected, " +
            "check_collected, latitude, longitude, returns (JSON [{type: item|cash|check, amount: \"12.50\", order_id}]); " +
            "_csrf_token as a field. The server recomputes what must come back and refuses any difference (409). " +
            "Attempted and never-attempted orders become returned_to_pharmacy, delivered cash and check orders reconciled.",
          tags: ["returns"],
          consumes: ["multipart/form-data"],
          params: PharmacyIdParams,
          body: ReturnRequest,
          response: {
            200: ReturnResponse,
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
      async (request) =>
        recordReturn(deps.db, currentSession(request).courier.id, request.params.id, request.body, deps.today()),
    );
  };
