/**
 * A recipient's signature arrives as signature.svg (spec §9). It is stored
 * and later shown to people, so only a drawing is accepted: an <svg> root
 * holding path, polyline, line, circle, g and rect elements with presentation
 * attributes. No script, no event handlers, no foreignObject, no links, no
 * entities or DOCTYPE, no text. Anything else is refused, never "cleaned".
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

const DECLARATION = /^<\?xml\s+version\s*=\s*(["'])1\.[01]\1(\s+encoding\s*=\s*(["'])[A-Za-z0-9._-]+\3)?(\s+standalone\s*=\s*(["'])(yes|no)\5)?\s*\?>/;
const TAG = /<(\/)?([A-Za-z][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"<>]*"|'[^'<>]*'))*)\s*(\/)?>/y;
const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
/** Values that could fetch, run or expand something. */
const UNSAFE_VALUE = /url\s*\(|javascript:|data:|expression\s*\(|[&\\]/i;

const refuse = (reason: string): SvgVerdict => ({ ok: false, reason });

function checkAttributes(element: string, source: string): SvgVerdict {
  const seen = new Set<string>();
  for (const match of source.matchAll(ATTRIBUTE)) {
    const name = match[1]!;
    const value = match[2] ?? match[3] ?? "";
    if (seen.has(name)) return refuse(`The signature repeats the attribute ${name}.`);
    seen.add(name);
    if (/^on/i.test(name)) return refuse("The signature may not contain event handlers.");
    if (/href$/i.test(name)) return refuse("The signature may not link to other resources.");
    if (!ATTRIBUTES.has(name)) return refuse(`The signature may not use the attribute ${name} on <${element}>.`);
    if (name in NAMESPACES) {
      if (value !== NAMESPACES[name]) return refuse(`The signature's ${name} namespace is not SVG's.`);
    } else if (UNSAFE_VALUE.test(value)) {
      return refuse(`The signature's ${name} attribute holds something other than a drawing.`);
    }
  }
  return { ok: true };
}

export function checkSignatureSvg(text: string): SvgVerdict {
  let source = text.replace(/^\uFEFF/, "").trim();
  const declaration = DECLARATION.exec(source);
  if (declaration) source = source.slice(declaration[0].length);
  if (source.includes("<!")) return refuse("The signature may not contain a DOCTYPE, comments or CDATA.");
  if (source.includes("<?")) return refuse("The signature may not contain processing instructions.");

  const open: string[] = [];
  let roots = 0;
  let elements = 0;
  let strokes = 0;
  let index = 0;
  while (index < source.length) {
    const lt = source.indexOf("<", index);
    const text = source.slice(index, lt === -1 ? source.length : lt);
    if (text.trim() !== "") return refuse("The signature may not contain text.");
    if (lt === -1) break;
    TAG.lastIndex = lt;
    const tag = TAG.exec(source);
    if (!tag) return refuse("The signature is not well-formed SVG.");
    index = TAG.lastIndex;
    const [, closing, name, attributes, selfClosing] = tag as unknown as [string, string | undefined, string, string, string | undefined];

    if (closing) {
      if (attributes.trim() !== "" || selfClosing) return refuse("The signature is not well-formed SVG.");
      if (open.pop() !== name) return refuse(`The signature closes <${name}> out of order.`);
      continue;
    }
    if (!CONTAINERS.has(name) && !DRAWING.has(name)) {
      return refuse(`The signature may contain drawing elements only, not <${name}>.`);
    }
    if (open.length === 0) {
      if (name !== "svg" || ++roots > 1) return refuse("The signature must be one <svg> element.");
    } else if (name === "svg") {
      return refuse("The signature may not nest <svg> elements.");
    } else if (DRAWING.has(open[open.length - 1]!)) {
      return refuse(`The signature may not put elements inside <${open[open.length - 1]}>.`);
    }
    const verdict = checkAttributes(name, attributes);
    if (!verdict.ok) return verdict;
    if (++elements > MAX_ELEMENTS) return refuse("The signature has too many elements.");
    if (STROKES.has(name)) strokes++;
    if (!selfClosing) {
      open.push(name);
      if (open.length > MAX_DEPTH) return refuse("The signature nests too deeply.");
    }
  }
  if (roots === 0) return refuse("The signature must be an <svg> element.");
  if (open.length > 0) return refuse(`The signature leaves <${open[open.length - 1]}> open.`);
  if (strokes === 0) return refuse("The signature is empty.");
  return { ok: true };
}
