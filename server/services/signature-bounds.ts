/**
 * Issue 24: a signature's numbers, bounded by its own drawing area. A PDF
 * library cannot write 1e21 or a scale of 1e302 (`unsupported number`), and a
 * viewer cannot draw a stroke 1e30 wide, so a signature stored with such a
 * value would break every later proof. At upload every coordinate, width and
 * radius must be a finite number within a bound of the viewBox, and the
 * viewBox itself must be a plausible size; the proof renderer holds stored
 * signatures to the same rule before drawing them.
 */

export interface SvgElement {
  name: string;
  attributes: Record<string, string>;
}

/** A drawing area's side, in user units: a pad is some hundreds; 1e-300 or 1e21 is not a drawing. */
export const CANVAS_MIN_SIDE = 1;
export const CANVAS_MAX_SIDE = 100_000;
/** How far outside its drawing area a stroke may reach, in drawing-area sizes. */
const REACH = 10;

const NUMBER = /[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;
const SINGLE = /^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*(?:px)?\s*$/;
const PATH_DATA = /^[MmZzLlHhVvCcSsQqTtAa\d\s,.+\-eE]*$/;
const POINTS = /^[\d\s,.+\-eE]*$/;
const TRANSFORM = /^(?:\s*(?:matrix|translate|scale|rotate|skewX|skewY)\s*\([\d\s,.+\-eE]*\)\s*,?)*\s*$/;

/** Coordinates: a number, or a list of them (d, points, transform). */
const COORDINATES = new Set(["x", "y", "x1", "y1", "x2", "y2", "cx", "cy"]);
/** Sizes: never negative, at most the drawing area. */
const SIZES = new Set(["r", "rx", "ry", "stroke-width"]);
const FRACTIONS = new Set(["opacity", "fill-opacity", "stroke-opacity"]);

interface Canvas {
  x: number;
  y: number;
  width: number;
  height: number;
}

const shown = (value: string) => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

function single(value: string): number | null {
  if (!SINGLE.test(value)) return null;
  const parsed = Number.parseFloat(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/** The area the signature declares (its viewBox, else width and height), or why it has none a drawing can use. */
function canvasOf(root: SvgElement): Canvas | string {
  const { viewBox, width, height } = root.attributes;
  for (const [name, value] of [["width", width], ["height", height]] as const) {
    if (value === undefined) continue;
    const side = single(value.replace(/%$/, ""));
    if (side === null || side < CANVAS_MIN_SIDE || side > CANVAS_MAX_SIDE) {
      return `The signature's ${name} (${shown(value)}) must be a number between ${CANVAS_MIN_SIDE} and ${CANVAS_MAX_SIDE.toLocaleString("en-US")}.`;
    }
  }
  if (viewBox !== undefined) {
    const parts = viewBox.trim().split(/[\s,]+/);
    const box = parts.map((part) => single(part));
    const [x, y, w, h] = box;
    const sideOk = (side: number | null | undefined) => side != null && side >= CANVAS_MIN_SIDE && side <= CANVAS_MAX_SIDE;
    const originOk = (at: number | null | undefined) => at != null && Math.abs(at) <= CANVAS_MAX_SIDE;
    if (parts.length !== 4 || !originOk(x) || !originOk(y) || !sideOk(w) || !sideOk(h)) {
      return (
        `The signature's viewBox (${shown(viewBox)}) must be four numbers: a corner within ±${CANVAS_MAX_SIDE.toLocaleString("en-US")} ` +
        `and a width and height between ${CANVAS_MIN_SIDE} and ${CANVAS_MAX_SIDE.toLocaleString("en-US")}.`
      );
    }
    return { x: x!, y: y!, width: w!, height: h! };
  }
  return { x: 0, y: 0, width: width ? single(width.replace(/%$/, ""))! : 300, height: height ? single(height.replace(/%$/, ""))! : 150 };
}

/** Why one attribute's numbers do not fit the drawing area, in words; null when they do. */
function attributeProblem(element: SvgElement, name: string, value: string, canvas: Canvas): string | null {
  const extent = Math.max(canvas.width, canvas.height);
  const reach = Math.max(Math.abs(canvas.x), Math.abs(canvas.y)) + REACH * extent;
  const where = `The signature's <${element.name}> ${name}`;
  const coordinates = (text: string) => {
    for (const token of text.match(NUMBER) ?? []) {
      const number = Number(token);
      if (!Number.isFinite(number) || Math.abs(number) > reach) {
        return `${where} holds a coordinate (${shown(token)}) outside its drawing area: every coordinate must be within ±${Math.round(reach).toLocaleString("en-US")}.`;
      }
    }
    return null;
  };
  if (name === "d") return PATH_DATA.test(value) ? coordinates(value) : `${where} is not SVG path data.`;
  if (name === "points") return POINTS.test(value) ? coordinates(value) : `${where} is not a list of numbers.`;
  if (name === "transform") return TRANSFORM.test(value) ? coordinates(value) : `${where} is not an SVG transform.`;
  if (element.name === "svg") return null; // width, height and viewBox: canvasOf
  const isSize = SIZES.has(name) || (element.name === "rect" && (name === "width" || name === "height"));
  if (!COORDINATES.has(name) && !isSize && !FRACTIONS.has(name) && name !== "stroke-miterlimit") return null;
  // A length may be a percentage of the drawing area (signature_pad's background rect is width="100%").
  const percent = FRACTIONS.has(name) || name === "stroke-miterlimit" ? false : /%\s*$/.test(value);
  const text = percent ? value.replace(/%\s*$/, "") : value;
  if (!SINGLE.test(text)) return `${where} (${shown(value)}) must be a number.`;
  const parsed = Number.parseFloat(text);
  const number = percent ? (parsed * extent) / 100 : parsed;
  if (!Number.isFinite(number)) return `${where} (${shown(value)}) must be a finite number.`;
  if (COORDINATES.has(name)) {
    if (!percent) return coordinates(value);
    return Math.abs(number) > reach ? `${where} (${shown(value)}) is outside its drawing area.` : null;
  }
  if (isSize && (number < 0 || number > extent)) {
    return `${where} (${shown(value)}) must be between 0 and the drawing area's ${extent.toLocaleString("en-US")}.`;
  }
  if (FRACTIONS.has(name) && (number < 0 || number > 1)) return `${where} (${shown(value)}) must be between 0 and 1.`;
  if (name === "stroke-miterlimit" && (number < 1 || number > 100)) return `${where} (${shown(value)}) must be between 1 and 100.`;
  return null;
}

/** Why the signature's numbers cannot be drawn, in words; null when every one fits its drawing area. */
export function signatureBoundsProblem(elements: readonly SvgElement[]): string | null {
  const root = elements.find((element) => element.name === "svg");
  if (!root) return null;
  const canvas = canvasOf(root);
  if (typeof canvas === "string") return canvas;
  for (const element of elements) {
    for (const [name, value] of Object.entries(element.attributes)) {
      const problem = attributeProblem(element, name, value, canvas);
      if (problem) return problem;
    }
  }
  return null;
}
