/**
 * Draws a stored signature SVG into a PDF as vectors: its path, polyline,
 * line and circle elements, scaled into a box. The SVG was checked at upload
 * (server/services/signature-svg.ts) to hold drawing elements only, so this
 * reads elements and attributes and nothing else; rects are the pad's
 * background and are not drawn; transforms on <g> are not applied (the
 * signature pad writes none).
 */

export interface VectorTarget {
  save(): this;
  restore(): this;
  translate(x: number, y: number): this;
  scale(factor: number): this;
  path(d: string): this;
  moveTo(x: number, y: number): this;
  lineTo(x: number, y: number): this;
  circle(x: number, y: number, r: number): this;
  lineWidth(width: number): this;
  lineCap(cap: "round"): this;
  lineJoin(join: "round"): this;
  stroke(color?: string): this;
  fill(color?: string): this;
}

const ELEMENT = /<(path|polyline|line|circle|svg)\b([^>]*)>/g;
const ATTRIBUTE = /([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;

function attributes(source: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of source.matchAll(ATTRIBUTE)) found[match[1]!] = match[2] ?? match[3] ?? "";
  return found;
}

const num = (value: string | undefined, fallback = 0) => {
  const parsed = Number.parseFloat(value ?? "");
  return Number.isFinite(parsed) ? parsed : fallback;
};
/** Only plain colours; anything else draws in black. */
const colour = (value: string | undefined) => (value && /^(#[0-9a-f]{3,8}|[a-z]+)$/i.test(value) && value !== "none" ? value : "black");

/** The drawing area the SVG declares: its viewBox, else its width and height. */
function canvasOf(svg: Record<string, string>): { x: number; y: number; width: number; height: number } {
  const box = (svg.viewBox ?? "").trim().split(/[\s,]+/).map(Number);
  if (box.length === 4 && box.every(Number.isFinite) && box[2]! > 0 && box[3]! > 0) {
    return { x: box[0]!, y: box[1]!, width: box[2]!, height: box[3]! };
  }
  return { x: 0, y: 0, width: num(svg.width, 300) || 300, height: num(svg.height, 150) || 150 };
}

/** Draws the signature to fit the box (x, y, width, height), keeping its proportions. Returns the number of strokes drawn. */
export function drawSignature(doc: VectorTarget, svgText: string, box: { x: number; y: number; width: number; height: number }): number {
  let canvas = { x: 0, y: 0, width: 300, height: 150 };
  let strokes = 0;
  const elements = [...svgText.matchAll(ELEMENT)].map((match) => ({ name: match[1]!, attrs: attributes(match[2]!) }));
  const root = elements.find((element) => element.name === "svg");
  if (root) canvas = canvasOf(root.attrs);
  const factor = Math.min(box.width / canvas.width, box.height / canvas.height);
  doc.save();
  doc.translate(box.x + (box.width - canvas.width * factor) / 2, box.y + (box.height - canvas.height * factor) / 2);
  doc.scale(factor);
  doc.translate(-canvas.x, -canvas.y);
  for (const { name, attrs } of elements) {
    const width = num(attrs["stroke-width"], 2);
    if (name === "path" && attrs.d) {
      doc.path(attrs.d).lineWidth(width).lineCap("round").lineJoin("round");
      if (attrs.fill && attrs.fill !== "none") doc.fill(colour(attrs.fill));
      else doc.stroke(colour(attrs.stroke));
      strokes++;
    } else if (name === "polyline" && attrs.points) {
      const points = attrs.points.trim().split(/[\s,]+/).map(Number);
      if (points.length < 4 || points.some((p) => !Number.isFinite(p))) continue;
      doc.moveTo(points[0]!, points[1]!);
      for (let i = 2; i + 1 < points.length; i += 2) doc.lineTo(points[i]!, points[i + 1]!);
      doc.lineWidth(width).lineCap("round").lineJoin("round").stroke(colour(attrs.stroke));
      strokes++;
    } else if (name === "line") {
      doc.moveTo(num(attrs.x1), num(attrs.y1)).lineTo(num(attrs.x2), num(attrs.y2)).lineWidth(width).lineCap("round").stroke(colour(attrs.stroke));
      strokes++;
    } else if (name === "circle") {
      doc.circle(num(attrs.cx), num(attrs.cy), num(attrs.r, 1)).fill(colour(attrs.fill === "none" ? attrs.stroke : attrs.fill));
      strokes++;
    }
  }
  doc.restore();
  return strokes;
}
