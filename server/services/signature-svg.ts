import { SaxesParser, type SaxesTagPlain } from "saxes";
import { hasControlCharacters } from "../../domain/contract/scalars.ts";
import { signatureBoundsProblem, type SvgElement } from "./signature-bounds.ts";

/**
 * A recipient's signature arrives as signature.svg (spec §9). It is stored
 * and later shown to people, so only a drawing is accepted. It is first read
 * by a strict XML parser (saxes: XML 1.0 well-formedness, so no NUL or other
 * characters XML forbids, no unknown entities, no repeated attributes), and
 * the parsed elements are then held to an allow-list: an <svg> root
 * holding path, polyline, line, circle, g and rect elements with presentation
 * attributes. No script, no event handlers, no foreignObject, no links, no
 * entities or DOCTYPE, no text. Anything else is refused, never "cleaned".
 * Every number must fit the drawing area (server/services/signature-bounds.ts).
 */

export type SvgVerdict = { ok: true } | { ok: false; reason: string };

const CONTAINERS = new Set(["svg", "g"]);
const DRAWING = new Set(["path", "polyline", "line", "circle", "rect"]);
/** What signature_pad draws; a bare background rect is not a signature. */
const STROKES = new Set(["path", "polyline", "line", "circle"]);

const ATTRIBUTES = new Set([
  "xmlns", "xmlns:xlink", "version", "viewBox", "width", "height", "preserveAspectRatio",
  "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry", "d", "points", "transform",
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap", "stroke-linejoin",
  "stroke-miterlimit", "opacity",
]);
const NAMESPACES: Record<string, string> = {
  xmlns: "http://www.w3.org/2000/svg",
  "xmlns:xlink": "http://www.w3.org/1999/xlink",
};

const MAX_ELEMENTS = 20_000;
const MAX_DEPTH = 8;

/** Values that could fetch, run or expand something (checked after the parser decoded references). */
const UNSAFE_VALUE = /url\s*\(|javascript:|data:|expression\s*\(|[&\\]/i;
/** Controls are refused in the text itself even where an XML version would allow them as references. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

const refuse = (reason: string): SvgVerdict => ({ ok: false, reason });

/** Thrown from a parser event to stop at the first refusal. */
class Refusal extends Error {}

function checkAttributes(element: string, attributes: Record<string, string>): SvgVerdict {
  for (const [name, value] of Object.entries(attributes)) {
    if (/^on/i.test(name)) return refuse("The signature may not contain event handlers.");
    if (/href$/i.test(name)) return refuse("The signature may not link to other resources.");
    if (!ATTRIBUTES.has(name)) return refuse(`The signature may not use the attribute ${name} on <${element}>.`);
    if (hasControlCharacters(value, true)) return refuse(`The signature's ${name} attribute holds control characters.`);
    if (name in NAMESPACES) {
      if (value !== NAMESPACES[name]) return refuse(`The signature's ${name} namespace is not SVG's.`);
    } else if (UNSAFE_VALUE.test(value)) {
      return refuse(`The signature's ${name} attribute holds something other than a drawing.`);
    }
  }
  return { ok: true };
}

export function checkSignatureSvg(text: string): SvgVerdict {
  const source = text.replace(/^\uFEFF/, "").trim();
  if (source === "") return refuse("The signature must be an <svg> element.");
  if (!source.startsWith("<")) return refuse("The signature may not contain text.");
  if (RAW_CONTROL.test(source)) return refuse("The signature is not well-formed SVG (it holds control characters).");

  const open: string[] = [];
  const drawn: SvgElement[] = [];
  let roots = 0;
  let elements = 0;
  let strokes = 0;
  const stop = (reason: string): never => {
    throw new Refusal(reason);
  };

  const parser = new SaxesParser({ xmlns: false, position: false });
  parser.on("error", (error) => stop(`The signature is not well-formed SVG (${error.message.replace(/^.*?:\d+:\d+: /, "")}).`));
  parser.on("doctype", () => stop("The signature may not contain a DOCTYPE, comments or CDATA."));
  parser.on("comment", () => stop("The signature may not contain a DOCTYPE, comments or CDATA."));
  parser.on("cdata", () => stop("The signature may not contain a DOCTYPE, comments or CDATA."));
  parser.on("processinginstruction", () => stop("The signature may not contain processing instructions."));
  parser.on("text", (value) => {
    if (value.trim() !== "") stop("The signature may not contain text.");
  });
  parser.on("opentag", (tag: SaxesTagPlain) => {
    const name = tag.name;
    if (!CONTAINERS.has(name) && !DRAWING.has(name)) stop(`The signature may contain drawing elements only, not <${name}>.`);
    if (open.length === 0) {
      if (name !== "svg" || ++roots > 1) stop("The signature must be one <svg> element.");
    } else if (name === "svg") {
      stop("The signature may not nest <svg> elements.");
    } else if (DRAWING.has(open[open.length - 1]!)) {
      stop(`The signature may not put elements inside <${open[open.length - 1]}>.`);
    }
    const verdict = checkAttributes(name, tag.attributes);
    if (!verdict.ok) stop(verdict.reason);
    if (++elements > MAX_ELEMENTS) stop("The signature has too many elements.");
    if (STROKES.has(name)) strokes++;
    drawn.push({ name, attributes: tag.attributes });
    open.push(name);
    if (open.length > MAX_DEPTH) stop("The signature nests too deeply.");
  });
  parser.on("closetag", () => void open.pop());

  try {
    parser.write(source).close();
  } catch (error) {
    if (error instanceof Refusal) return refuse(error.message);
    throw error;
  }
  if (roots === 0) return refuse("The signature must be an <svg> element.");
  if (strokes === 0) return refuse("The signature is empty.");
  const outOfBounds = signatureBoundsProblem(drawn);
  if (outOfBounds) return refuse(outOfBounds);
  return { ok: true };
}
