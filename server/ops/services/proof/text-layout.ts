import bidiFactory from "bidi-js";
import { fontRuns, type Face, type FontStyle } from "./fonts.ts";

/**
 * Lines of text laid out for a PDF, in any script: cut into runs by font
 * (fonts.ts), wrapped to a width (at spaces, between CJK characters, and
 * inside a word only when the word alone is wider than the line — an
 * identifier is wrapped, never clipped), and put in display order by the
 * Unicode bidirectional algorithm (bidi-js), so a Hebrew or Arabic name reads
 * right to left inside an English sentence.
 *
 * Pure: widths come from a `measure` the PDF writer passes in.
 */

const bidi = bidiFactory();

/**
 * Explicit direction marks, embeddings, overrides and isolates
 * (U+202A–202E, U+2066–2069, U+200E/F, U+061C). A stored value never carries
 * them into a document: an override in a name would reorder our own labels.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
/** Other control characters (keeping line breaks): nothing a PDF should draw. */
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu;

/** A value as stored, made safe to write: NFC, no direction controls, no control characters, one kind of line break. */
export function cleanText(value: string): string {
  return value
    .normalize("NFC")
    .replace(/\r\n?/g, "\n")
    .replace(/\t/g, " ")
    .replace(BIDI_CONTROLS, "")
    .split("\n")
    .map((line) => line.replace(CONTROLS, ""))
    .join("\n");
}

export type Measure = (text: string, face: Face) => number;

export interface Piece {
  /** In the order the PDF library is to be given it (see `shapedRtl`). */
  text: string;
  face: Face;
  x: number;
  width: number;
  /**
   * Right-to-left script (Arabic, Hebrew): passed in logical order, the font
   * engine shapes it (Arabic joining forms) and lays it out right to left itself.
   */
  shapedRtl: boolean;
}

export interface Line {
  pieces: Piece[];
  width: number;
}

const RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
/** What joins an Arabic word: its letters, marks, tatweel and joiners. */
const RTL_WORD = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{M}\u0640\u200C\u200D]/u;
const CJK_BREAK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303F\uFF00-\uFFEF]/u;
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/** Where a line may break: after spaces, around CJK characters. Returns [start, end) ranges. */
function tokens(text: string): [number, number][] {
  const out: [number, number][] = [];
  let start = 0;
  let index = 0;
  while (index < text.length) {
    const char = String.fromCodePoint(text.codePointAt(index)!);
    const next = index + char.length;
    if (CJK_BREAK.test(char)) {
      if (start < index) out.push([start, index]);
      let end = next;
      while (end < text.length && text[end] === " ") end++;
      out.push([index, end]);
      start = index = end;
      continue;
    }
    if (char === " ") {
      let end = next;
      while (end < text.length && text[end] === " ") end++;
      out.push([start, end]);
      start = index = end;
      continue;
    }
    index = next;
  }
  if (start < text.length) out.push([start, text.length]);
  return out;
}

interface Segment {
  start: number;
  end: number;
  face: Face;
  level: number;
}

/**
 * Lays out one paragraph (no line breaks inside) into lines at most `width`
 * wide (a single grapheme wider than the line is the only thing that may
 * exceed it).
 */
function layoutParagraph(text: string, style: FontStyle, width: number, measure: Measure): Line[] {
  const { text: drawn, runs } = fontRuns(text, style);
  if (drawn.trim() === "") return [{ pieces: [], width: 0 }];
  const levels = bidi.getEmbeddingLevels(drawn, "auto").levels;
  const faceAt = (index: number) => runs.find((run) => index >= run.start && index < run.end)!.face;
  const widthOf = (start: number, end: number) => {
    let total = 0;
    for (const run of runs) {
      const a = Math.max(start, run.start);
      const b = Math.min(end, run.end);
      if (a < b) total += measure(drawn.slice(a, b), run.face);
    }
    return total;
  };
  const trimEnd = (start: number, end: number) => {
    while (end > start && drawn[end - 1] === " ") end--;
    return end;
  };

  // Greedy wrapping in logical order; a line's width is the sum of its tokens' (each measured once).
  const ranges: [number, number][] = [];
  let lineStart = -1;
  let lineEnd = -1;
  let lineWidth = 0;
  const flush = () => {
    if (lineStart >= 0 && trimEnd(lineStart, lineEnd) > lineStart) ranges.push([lineStart, trimEnd(lineStart, lineEnd)]);
    lineStart = lineEnd = -1;
    lineWidth = 0;
  };
  for (const [start, end] of tokens(drawn)) {
    const inked = widthOf(start, trimEnd(start, end));
    const whole = trimEnd(start, end) === end ? inked : widthOf(start, end);
    if (lineStart >= 0 && lineWidth + inked <= width) {
      lineEnd = end;
      lineWidth += whole;
      continue;
    }
    flush();
    if (inked <= width) {
      lineStart = start;
      lineEnd = end;
      lineWidth = whole;
      continue;
    }
    // A word wider than the line (a long reference, an address without spaces): cut between graphemes.
    let pieceStart = start;
    let pieceEnd = start;
    let pieceWidth = 0;
    for (const { index, segment } of graphemes.segment(drawn.slice(start, end))) {
      const at = start + index;
      const after = at + segment.length;
      const added = widthOf(at, after);
      if (pieceEnd > pieceStart && segment !== " " && pieceWidth + added > width) {
        ranges.push([pieceStart, pieceEnd]);
        pieceStart = at;
        pieceWidth = 0;
      }
      pieceEnd = after;
      pieceWidth += added;
    }
    lineStart = pieceStart;
    lineEnd = pieceEnd;
    lineWidth = pieceWidth;
  }
  flush();

  return ranges.map(([start, end]) => {
    // Logical segments of one font and one embedding level; in right-to-left
    // text, words of an RTL script are kept apart from the neutrals between them.
    const segments: Segment[] = [];
    for (let index = start; index < end; ) {
      const char = String.fromCodePoint(drawn.codePointAt(index)!);
      const face = faceAt(index);
      const level = levels[index]!;
      const rtlWord = RTL_WORD.test(char);
      const last = segments[segments.length - 1];
      const lastRtlWord = last ? RTL_WORD.test(drawn[last.end - 1]!) : false;
      if (last && last.face === face && last.level === level && (level % 2 === 0 || lastRtlWord === rtlWord)) last.end += char.length;
      else segments.push({ start: index, end: index + char.length, face, level });
      index += char.length;
    }
    const visual = reorder(segments);
    let x = 0;
    const pieces = visual.map((segment) => {
      const slice = drawn.slice(segment.start, segment.end);
      const shapedRtl = segment.level % 2 === 1 && RTL_SCRIPT.test(slice);
      // An odd-level segment without RTL letters (brackets, an emoji) is reversed here, mirrored; the font engine would not.
      const text = segment.level % 2 === 1 && !shapedRtl ? mirrorReverse(slice) : slice;
      const pieceWidth = measure(text, segment.face);
      const piece = { text, face: segment.face, x, width: pieceWidth, shapedRtl };
      x += pieceWidth;
      return piece;
    });
    return { pieces, width: x };
  });
}

/** UAX #9 rule L2: reverse every sequence at level k or higher, from the highest level down to the lowest odd one. */
function reorder(segments: Segment[]): Segment[] {
  const out = [...segments];
  const highest = Math.max(0, ...out.map((s) => s.level));
  const lowestOdd = Math.min(...out.map((s) => (s.level % 2 === 1 ? s.level : Infinity)));
  for (let level = highest; level >= lowestOdd && Number.isFinite(lowestOdd); level--) {
    for (let i = 0; i < out.length; ) {
      if (out[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < out.length && out[j]!.level >= level) j++;
      const reversed = out.slice(i, j).reverse();
      out.splice(i, j - i, ...reversed);
      i = j;
    }
  }
  return out;
}

function mirrorReverse(text: string): string {
  return [...graphemes.segment(text)]
    .map(({ segment }) => (segment.length === 1 ? (bidi.getMirroredCharacter(segment) ?? segment) : segment))
    .reverse()
    .join("");
}

/** Lays out text (line breaks kept) for a column `width` wide. */
export function layoutText(value: string, style: FontStyle, width: number, measure: Measure): Line[] {
  return cleanText(value)
    .split("\n")
    .flatMap((paragraph) => layoutParagraph(paragraph, style, width, measure));
}
