import type { FastifyInstance, FastifyRequest } from "fastify";
import { FormFieldError, nestFormFields, type FormValue } from "../../domain/contract/form-fields.ts";
import { badRequest, HttpError } from "./errors.ts";

/**
 * multipart/form-data for the routes of one plugin, parsed as the body itself
 * (the content-type parser stage) into the nested object the route's zod
 * schema validates. Parsing here, rather than in @fastify/multipart's
 * preValidation hook, matters: the CSRF check (server/auth/plugin.ts) is an
 * app-wide preValidation hook that runs before any plugin's own, and it must
 * see the form's `_csrf_token`. The platform's FormData parser reads the
 * buffered body; every limit is checked before anything is kept.
 */

export interface MultipartLimits {
  /** Largest file part, in bytes. */
  fileBytes: number;
  /** All text fields together (names and values), in bytes. */
  fieldBytes: number;
  parts: number;
  /** The only field names that may carry a file (read as UTF-8 text). */
  fileFields: readonly string[];
  /**
   * Fields whose file is binary (a photo): read as bytes and handed on as
   * base64, each with its own limit; a larger one is refused with a 400 in words
   * (the body limit leaves room for it to be read and named).
   */
  binaryFileFields?: Readonly<Record<string, { maxBytes: number; tooLarge: (bytes: number) => string }>>;
}

const tooLarge = (message: string) => new HttpError(413, "body_too_large", message);

async function readForm(body: Buffer, contentType: string, limits: MultipartLimits): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw badRequest("The form could not be read: send it as multipart/form-data with its boundary.");
  }
  const entries: [string, FormValue][] = [];
  let parts = 0;
  let fieldBytes = 0;
  for (const [name, value] of form) {
    if (++parts > limits.parts) throw tooLarge(`The form has more than ${limits.parts} parts.`);
    if (typeof value === "string") {
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > limits.fieldBytes) throw tooLarge(`The form's fields exceed ${Math.round(limits.fieldBytes / 1024)} KB.`);
      entries.push([name, value]);
      continue;
    }
    const binary = limits.binaryFileFields?.[name];
    if (binary) {
      if (value.size > binary.maxBytes) throw badRequest(binary.tooLarge(value.size));
      entries.push([name, { filename: value.name, type: value.type, content: Buffer.from(await value.arrayBuffer()).toString("base64") }]);
      continue;
    }
    if (!limits.fileFields.includes(name)) throw badRequest(`The form field ${name.slice(0, 80)} may not carry a file.`);
    if (value.size > limits.fileBytes) throw tooLarge(`The file ${name} exceeds ${Math.round(limits.fileBytes / 1024)} KB.`);
    entries.push([name, { filename: value.name, type: value.type, content: await value.text() }]);
  }
  try {
    return nestFormFields(entries);
  } catch (error) {
    if (error instanceof FormFieldError) throw badRequest(error.message);
    throw error;
  }
}

export function installMultipartForm(app: FastifyInstance, limits: MultipartLimits): void {
  // Headroom for each part's boundary and headers; beyond it Fastify answers 413 before parsing.
  // A binary file may be up to twice its limit and still be read, so that its 400 names its size.
  const binaryBytes = Object.values(limits.binaryFileFields ?? {}).reduce((sum, field) => sum + 2 * field.maxBytes, 0);
  const bodyLimit = limits.fileBytes + binaryBytes + limits.fieldBytes + limits.parts * 512;
  if (app.hasContentTypeParser("multipart/form-data")) app.removeContentTypeParser("multipart/form-data");
  app.addContentTypeParser("multipart/form-data", { parseAs: "buffer", bodyLimit }, async (request: FastifyRequest, body: Buffer) =>
    readForm(body, request.headers["content-type"] ?? "", limits),
  );
}
