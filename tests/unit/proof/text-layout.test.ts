import { describe, expect, it } from "vitest";
import { cleanText, layoutText, type Line } from "../../../server/ops/services/proof/text-layout.ts";
import { fontRuns } from "../../../server/ops/services/proof/fonts.ts";

/**
 * The PDF text layout on its own (issue 24 §7): fonts chosen per script,
 * display order by the bidi algorithm, wrapping that never drops a character.
 * Widths are a fixed 5 points a UTF-16 unit, so the tests read as columns.
 */

const measure = (text: string) => text.length * 5;
const lay = (value: string, width = 1000) => layoutText(value, "regular", width, measure);
/** A line as drawn, left to right, RTL pieces written in the order the font engine will show them. */
const shown = (line: Line) => line.pieces.map((piece) => (piece.shapedRtl ? [...piece.text].reverse().join("") : piece.text)).join("");
const faces = (value: string) => fontRuns(value, "regular").runs.map((run) => run.face.key);

describe("fonts by script", () => {
  it("writes each script in a font that has it, and keeps an Arabic name in one run with its spaces", () => {
    expect(faces("Nguyễn Thị Дмитрий Ελένη")).toEqual(["sans-400Regular"]);
    expect(faces("محمد عبد الله")).toEqual(["arabic-400Regular"]);
    expect(faces("שרה כהן")).toEqual(["hebrew-400Regular"]);
    expect(faces("王秀英")).toEqual(["cjk-400Regular"]);
    expect(faces("Ana 😀 Ruiz")).toEqual(["sans-400Regular", "emoji-400Regular", "sans-400Regular"]);
  });

  it("keeps an emoji sequence whole and marks a character no font has instead of drawing garbage", () => {
    const family = fontRuns("👩‍👩‍👧", "regular");
    expect(family.text).toBe("👩‍👩‍👧");
    expect(family.runs.map((run) => run.face.key)).toEqual(["emoji-400Regular"]);
    expect(fontRuns("a\u{E0100}b", "regular").text).toBe("ab"); // an invisible selector no font needs
    expect(fontRuns("தமிழ்", "regular").text).toMatch(/^\uFFFD+$/); // Tamil: no font of ours has it
  });
});

describe("bidi", () => {
  it("strips U+202E and the other direction controls so they cannot reorder our labels", () => {
    expect(cleanText("\u202EEvil\u202C \u2066Name\u2069\u200E\u200F\u061C")).toBe("Evil Name");
    const [line] = lay("Received by: \u202Eabc");
    expect(shown(line!)).toBe("Received by: abc");
  });

  it("shows a Hebrew name right to left inside an English sentence, the sentence left to right", () => {
    const [line] = lay("Received by שרה כהן today");
    // Display order: the first Hebrew word (שרה) is the rightmost of the two.
    expect(shown(line!)).toBe(`Received by ${[..."כהן"].reverse().join("")} ${[..."שרה"].reverse().join("")} today`);
    const hebrew = line!.pieces.filter((piece) => piece.shapedRtl).map((piece) => piece.text);
    expect(hebrew).toEqual(["כהן", "שרה"]); // each word handed to the font engine in logical order, to be shaped
  });

  it("mirrors brackets in right-to-left text", () => {
    const [line] = lay("שרה (כהן)");
    expect(line!.pieces.map((piece) => piece.text).join("|")).toBe("(|כהן|) |שרה");
  });
});

describe("wrapping", () => {
  it("wraps at spaces and never loses a character", () => {
    const lines = lay("one two three four five six", 60);
    expect(lines.map((line) => line.pieces.map((p) => p.text).join(""))).toEqual(["one two", "three four", "five six"]);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(60);
  });

  it("cuts an identifier wider than the line between characters, keeping all of it", () => {
    const reference = `REF-${"X".repeat(40)}-TAIL`;
    const lines = lay(reference, 100);
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.map((line) => line.pieces.map((p) => p.text).join("")).join("")).toBe(reference);
    for (const line of lines) expect(line.width).toBeLessThanOrEqual(100);
  });

  it("wraps CJK between characters and keeps line breaks", () => {
    const lines = lay("北京市朝阳区建国路\nline two", 20);
    expect(lines.map((line) => line.pieces.map((p) => p.text).join(""))).toEqual(["北京市朝", "阳区建国", "路", "line", "two"]);
  });
});
