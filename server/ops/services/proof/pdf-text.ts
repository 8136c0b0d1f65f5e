import PDFDocument from "pdfkit";
import { FACES, loadFace, type Face, type FontStyle } from "./fonts.ts";
import { layoutText, type Line, type Piece } from "./text-layout.ts";

/**
 * Writes text into a pdfkit document in any script: the layout (fonts, wrapping,
 * bidi order) is text-layout.ts's; this draws its pieces, each in its own font,
 * on a shared baseline. Fonts are registered with a document only when it
 * draws with them, so a document embeds (as subsets) just the fonts it uses.
 *
 * The font engine is given a right-to-left piece whole (`features: []` turns
 * off pdfkit's word-by-word layout, which would put an RTL run's words in
 * left-to-right order), so it is shaped and laid out right to left as one.
 */

export interface TextStyle {
  style?: FontStyle;
  size: number;
  color?: string;
}

const WHOLE_RUN = { features: [] as PDFKit.Mixins.OpenTypeFeatures[] };

/**
 * How a piece is given to the font engine. Noto Sans decomposes a Vietnamese
 * 'ị' into 'i' and a combining dot (its ccmp feature); pdfkit maps each glyph
 * to text once, so the dot would be lost to copy and search: Noto Sans is
 * used with ccmp off (text is NFC, so the precomposed glyph is there).
 */
function features(piece: Piece): { features?: PDFKit.Mixins.OpenTypeFeatures[] } {
  if (piece.shapedRtl) return WHOLE_RUN;
  // A fresh object each time: fontkit writes its defaults into the one it is given.
  if (piece.face.key.startsWith("sans-")) return { features: { ccmp: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[] };
  return {};
}
/** Line height as a multiple of the font size: room for Vietnamese stacked accents and CJK. */
export const LEADING = 1.32;

/** What of pdfkit's font registry a document is given a font through. */
interface FontRegistry {
  _fontFamilies?: Record<string, unknown>;
  _fontCount?: number;
  _font?: { font?: unknown; constructor: EmbeddedFontClass } | null;
}
type EmbeddedFontClass = new (doc: PDFKit.PDFDocument, font: unknown, id: string) => unknown;
let embeddedFontClass: EmbeddedFontClass | null | undefined;

/**
 * pdfkit's class for an embedded font, taken from a document once. pdfkit
 * parses a font file again for every document, and a parsed font's first
 * layout reads its OpenType tables (about 65 ms a face); a parsed font is
 * read-only (each document makes its own subset), so documents are given the
 * face parsed once per process. Should pdfkit's internals change, fonts are
 * registered the documented way (slower, same result).
 */
function embeddedFont(): EmbeddedFontClass | null {
  if (embeddedFontClass === undefined) {
    const probe = new PDFDocument({ font: defaultFontBytes() as unknown as string }) as unknown as FontRegistry;
    embeddedFontClass = probe._font && "font" in probe._font ? probe._font.constructor : null;
  }
  return embeddedFontClass;
}

export class PdfText {
  private readonly registered = new Set<string>();
  /** Widths by face, size and text: a layout measures the same words again and again. */
  private readonly widths = new Map<string, number>();

  constructor(private readonly doc: PDFKit.PDFDocument) {}

  private use(face: Face, size: number): PDFKit.PDFDocument {
    if (!this.registered.has(face.key)) {
      const registry = this.doc as unknown as FontRegistry;
      const Embedded = embeddedFont();
      if (Embedded && registry._fontFamilies && typeof registry._fontCount === "number") {
        registry._fontCount += 1;
        registry._fontFamilies[face.key] = new Embedded(this.doc, loadFace(face).font, `F${registry._fontCount}`);
      } else {
        this.doc.registerFont(face.key, loadFace(face).bytes);
      }
      this.registered.add(face.key);
    }
    return this.doc.font(face.key).fontSize(size);
  }

  lines(value: string, width: number, { style = "regular", size }: TextStyle): Line[] {
    return layoutText(value, style, width, (text, face) => {
      const key = `${face.key}|${size}|${text}`;
      let found = this.widths.get(key);
      if (found === undefined) {
        // pdfkit's own measure lays out (and caches) word by word, shaping each word: the same width as the whole run, faster.
        found = this.use(face, size).widthOfString(text);
        this.widths.set(key, found);
      }
      return found;
    });
  }

  lineHeight(size: number): number {
    return size * LEADING;
  }

  /** Draws laid-out lines from `top`; returns the y below the last line. */
  draw(lines: Line[], x: number, top: number, { size, color = "black" }: TextStyle): number {
    let baseline = top + size * 1.02;
    for (const line of lines) {
      for (const piece of line.pieces) {
        this.use(piece.face, size)
          .fillColor(color)
          .text(piece.text, x + piece.x, baseline, { lineBreak: false, baseline: "alphabetic", ...features(piece) });
      }
      baseline += this.lineHeight(size);
    }
    return top + lines.length * this.lineHeight(size);
  }

  /** Wraps and draws `value` in a column `width` wide; returns the y below it. */
  write(value: string, x: number, top: number, width: number, style: TextStyle): number {
    return this.draw(this.lines(value, width, style), x, top, style);
  }

  /** The height `value` takes in a column `width` wide. */
  height(value: string, width: number, style: TextStyle): number {
    return this.lines(value, width, style).length * this.lineHeight(style.size);
  }
}

const defaultFontBytes = () => loadFace(FACES.regular[0]!).bytes;
