import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * The fonts the PDFs are written in: Noto from npm packages the project
 * installs (never whatever the machine has), so every script a name can be
 * written in has glyphs — Latin with Vietnamese, Cyrillic and Greek (Noto
 * Sans), Arabic, Hebrew, CJK (Noto Sans SC) and monochrome emoji. pdfkit
 * embeds each font used as a subset of the glyphs the document draws.
 *
 * A string is cut into runs, each in the first font (in the order below) that
 * has a glyph for it; spaces, digits and punctuation stay in the font of the
 * run they are in, so an Arabic name stays one shaped run.
 */

export type FontStyle = "regular" | "bold" | "italic";

export interface Face {
  /** The name the face is registered under in a document. */
  key: string;
  /** Resolved from the npm package. */
  module: string;
  /** Only consulted for characters of these scripts: the CJK font is 10 MB, read once a document needs it. */
  only?: RegExp;
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Bopomofo}\u3000-\u303F\u31C0-\u31EF\u3200-\u33FF\uFE30-\uFE4F\uFF00-\uFFEF]/u;

const face = (key: string, module: string, only?: RegExp): Face => (only ? { key, module, only } : { key, module });
const ARABIC = (weight: string) => face(`arabic-${weight}`, `@expo-google-fonts/noto-sans-arabic/${weight}/NotoSansArabic_${weight}.ttf`);
const HEBREW = (weight: string) => face(`hebrew-${weight}`, `@expo-google-fonts/noto-sans-hebrew/${weight}/NotoSansHebrew_${weight}.ttf`);
const EMOJI = (weight: string) => face(`emoji-${weight}`, `@expo-google-fonts/noto-emoji/${weight}/NotoEmoji_${weight}.ttf`);
const CHINESE = (weight: string) => face(`cjk-${weight}`, `@expo-google-fonts/noto-sans-sc/${weight}/NotoSansSC_${weight}.ttf`, CJK);

export const FACES: Record<FontStyle, Face[]> = {
  regular: [
    face("sans-400Regular", "@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf"),
    ARABIC("400Regular"),
    HEBREW("400Regular"),
    EMOJI("400Regular"),
    CHINESE("400Regular"),
  ],
  bold: [
    face("sans-700Bold", "@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf"),
    ARABIC("700Bold"),
    HEBREW("700Bold"),
    EMOJI("700Bold"),
    CHINESE("700Bold"),
  ],
  italic: [
    face("sans-400Regular_Italic", "@expo-google-fonts/noto-sans/400Regular_Italic/NotoSans_400Regular_Italic.ttf"),
    ARABIC("400Regular"),
    HEBREW("400Regular"),
    EMOJI("400Regular"),
    CHINESE("400Regular"),
  ],
};

/** The part of fontkit (pdfkit's font engine, which ships no types) used here. */
export interface ParsedFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
interface Fontkit {
  create(source: Uint8Array, family?: string): ParsedFont;
}

const require = createRequire(import.meta.url);
/** fontkit as pdfkit itself loads it: the same module instance, so a font parsed here is the one pdfkit draws with. */
const fontkit = createRequire(require.resolve("pdfkit"))("fontkit") as Fontkit;

const loaded = new Map<string, { bytes: Buffer; font: ParsedFont }>();

/** A face's bytes and parsed font, read on first use and kept for the life of the process. */
export function loadFace(wanted: Face): { bytes: Buffer; font: ParsedFont } {
  let found = loaded.get(wanted.key);
  if (!found) {
    const bytes = readFileSync(require.resolve(wanted.module));
    found = { bytes, font: fontkit.create(bytes) };
    loaded.set(wanted.key, found);
  }
  return found;
}

/** Whether a face has been read in this process (the CJK font must wait until a document needs it). */
export const isLoaded = (wanted: Face) => loaded.has(wanted.key);

export interface FontRun {
  start: number;
  end: number;
  face: Face;
}

/** Characters that take the font of the run they are in when it has them. */
const NEUTRAL = /^[\p{Zs}\p{P}\p{N}\p{M}\p{Cf}\p{Sk}\p{Sm}]$/u;
/** Invisible characters no font needs to draw (joiners, variation selectors): dropped if the run's font lacks them. */
const IGNORABLE = /^\p{Default_Ignorable_Code_Point}$/u;
export const REPLACEMENT = "\uFFFD";

const covers = (candidate: Face, char: string, codePoint: number) =>
  (!candidate.only || candidate.only.test(char)) && loadFace(candidate).font.hasGlyphForCodePoint(codePoint);

/**
 * The text as it will be drawn (a character no font has becomes U+FFFD, an
 * invisible one the font lacks is dropped) and its runs by font, as indices
 * into that text.
 */
export function fontRuns(text: string, style: FontStyle): { text: string; runs: FontRun[] } {
  const faces = FACES[style];
  const primary = faces[0]!;
  let out = "";
  const runs: FontRun[] = [];
  let current: Face | null = null;
  const push = (chars: string, chosen: Face) => {
    const last = runs[runs.length - 1];
    if (last && last.face === chosen) last.end += chars.length;
    else runs.push({ start: out.length, end: out.length + chars.length, face: chosen });
    out += chars;
    current = chosen;
  };
  for (const char of text) {
    const codePoint = char.codePointAt(0)!;
    // The emoji font's space and punctuation are emoji-wide: text around an emoji goes back to a text font.
    const keeps = current && (IGNORABLE.test(char) || (NEUTRAL.test(char) && !(current as Face).key.startsWith("emoji-")));
    if (current && keeps && covers(current, char, codePoint)) {
      push(char, current);
      continue;
    }
    if (IGNORABLE.test(char)) continue;
    const chosen = faces.find((candidate) => covers(candidate, char, codePoint));
    if (chosen) push(char, chosen);
    else push(REPLACEMENT, primary);
  }
  return { text: out, runs };
}
