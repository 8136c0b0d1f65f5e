import { dataUrlBytes } from "../delivery-photo.ts";
/**
 * Bracket-named form fields (spec §7: delivery[order_ids][],
 * delivery[survey][refill_reminder_opt_in], delivery[signature][attachment][file])
 * to and from nested objects. The app flattens a submission into a multipart
 * form with these names; the server nests the form back before validating it.
 */

/** A file part, held as text (the only file the product sends is a small SVG). */
export interface FormFile {
  filename: string;
  type: string;
  content: string;
}

export type FormValue = string | FormFile;

export class FormFieldError extends Error {}

const NAME = /^([A-Za-z_][A-Za-z0-9_]*)((?:\[[A-Za-z0-9_]*\])*)$/;
/** Keys that would reach an object's prototype. */
const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);

export function isFormFile(value: unknown): value is FormFile {
  return typeof value === "object" && value !== null && "filename" in value && "content" in value && "type" in value;
}

function segmentsOf(name: string): string[] {
  const match = NAME.exec(name);
  if (!match) throw new FormFieldError(`The form field name "${name.slice(0, 80)}" is not valid.`);
  const rest = [...match[2]!.matchAll(/\[([A-Za-z0-9_]*)\]/g)].map((m) => m[1]!);
  const segments = [match[1]!, ...rest];
  segments.forEach((segment, index) => {
    if (FORBIDDEN.has(segment)) throw new FormFieldError(`The form field name "${name}" is not allowed.`);
    if (segment === "" && index !== segments.length - 1) throw new FormFieldError(`The form field name "${name}" is not valid.`);
  });
  return segments;
}

type Node = Record<string, unknown>;
const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value) && !isFormFile(value);

/**
 * Entries → nested object. "a[b][]" collects a list; the same scalar name
 * twice, or a name used both as a value and as a group, is refused. Empty
 * text fields mean "not given" and are left out.
 */
export function nestFormFields(entries: Iterable<readonly [string, FormValue]>): Node {
  const root: Node = {};
  for (const [name, value] of entries) {
    const segments = segmentsOf(name);
    if (value === "") continue;
    let node = root;
    for (let i = 0; i < segments.length - 1; i++) {
      const key = segments[i]!;
      const next = segments[i + 1]!;
      if (next === "") {
        const list = node[key] ?? [];
        if (!Array.isArray(list)) throw new FormFieldError(`The form field "${name}" clashes with another field.`);
        list.push(value);
        node[key] = list;
        break;
      }
      const child = node[key] ?? {};
      if (!isNode(child)) throw new FormFieldError(`The form field "${name}" clashes with another field.`);
      node[key] = child;
      node = child;
    }
    const last = segments[segments.length - 1]!;
    if (last === "") continue;
    if (last in node) throw new FormFieldError(`The form field "${name}" was sent more than once.`);
    node[last] = value;
  }
  return root;
}

/**
 * Nested object → entries: lists as "name[]", booleans as "true"/"false",
 * null and undefined left out (the server reads a missing field as not given).
 */
export function flattenFormFields(value: Record<string, unknown>, prefix = ""): [string, FormValue][] {
  const entries: [string, FormValue][] = [];
  for (const [key, item] of Object.entries(value)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (item == null) continue;
    if (Array.isArray(item)) {
      for (const element of item) if (element != null) entries.push([`${name}[]`, scalar(element, name)]);
    } else if (isFormFile(item)) {
      entries.push([name, item]);
    } else if (typeof item === "object") {
      entries.push(...flattenFormFields(item as Record<string, unknown>, name));
    } else {
      entries.push([name, scalar(item, name)]);
    }
  }
  return entries;
}

function scalar(value: unknown, name: string): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  throw new FormFieldError(`The form field "${name}" cannot hold ${typeof value}.`);
}

/** Entries → FormData for fetch (files as Blobs with their type and name). */
export function toFormData(entries: readonly (readonly [string, FormValue])[]): FormData {
  const form = new FormData();
  for (const [name, value] of entries) {
    if (typeof value === "string") form.append(name, value);
    // A binary file (the photo of the drop-off) travels as its data: URL and is sent as its bytes.
    else form.append(name, new Blob([value.content.startsWith("data:") ? (dataUrlBytes(value.content) as Uint8Array<ArrayBuffer>) : value.content], { type: value.type }), value.filename);
  }
  return form;
}
