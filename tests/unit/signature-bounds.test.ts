import { describe, expect, it } from "vitest";
import { checkSignatureSvg } from "../../server/services/signature-svg.ts";
import { HOSTILE_SIGNATURES } from "../support/hostile-sweep.ts";

/** Issue 24 §2: every number of a signature fits its drawing area (server/services/signature-bounds.ts). */
describe("signature bounds", () => {
  it.each(HOSTILE_SIGNATURES.map((signature) => [signature.name, signature] as const))("%s", (_name, signature) => {
    const verdict = checkSignatureSvg(signature.svg);
    expect(verdict.ok).toBe(!signature.refused);
    if (!verdict.ok) expect(verdict.reason).toMatch(/^The signature's .*(must be|outside)/);
  });

  const pad = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354 200">${inner}<path d="M0 0L1 1"/></svg>`;
  it.each([
    ["a background rect of 100%", pad('<rect width="100%" height="100%" fill="white"/>'), true],
    ["a rect of 1e30%", pad('<rect width="1e30%" height="10"/>'), false],
    ["a rect at 1e999%", pad('<rect x="1e999%" width="10" height="10"/>'), false],
    ["a line to Infinity", pad('<line x1="1e999" y1="0" x2="0" y2="0"/>'), false],
    ["path data with letters that are not commands", pad('<path d="M0 0 L Infinity 0"/>'), false],
    ["a transform of 1e300", pad('<g transform="scale(1e300)"><path d="M0 0L2 2"/></g>'), false],
    ["an opacity of 2", pad('<path d="M0 0L2 2" opacity="2"/>'), false],
    ["a viewBox of three numbers", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 354"><path d="M0 0L1 1"/></svg>', false],
  ])("%s", (_name, svg, ok) => expect(checkSignatureSvg(svg).ok).toBe(ok));
});
