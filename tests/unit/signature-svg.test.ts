import { describe, expect, it } from "vitest";
import { checkSignatureSvg } from "../../server/services/signature-svg.ts";

/** What signature_pad's toSVG() produces: paths for strokes, circles for dots. */
const PAD = [
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 354 200" width="354" height="200">',
  '<path d="M 10.000,20.000 C 11.000,21.000 12.500,22.000 14.000,23.000" stroke-width="2.250" stroke="black" fill="none" stroke-linecap="round"></path>',
  '<circle r="1.5" cx="40" cy="50" fill="rgb(0, 0, 0)"></circle>',
  "</svg>",
].join("");

const wrap = (inner: string) => `<svg xmlns="http://www.w3.org/2000/svg">${inner}<path d="M0 0L1 1"/></svg>`;

describe("signature SVG check", () => {
  it("accepts signature_pad's output, with or without an XML declaration and background", () => {
    expect(checkSignatureSvg(PAD)).toEqual({ ok: true });
    expect(checkSignatureSvg(`<?xml version="1.0" encoding="UTF-8"?>\n${PAD}`)).toEqual({ ok: true });
    expect(checkSignatureSvg(`\uFEFF${PAD}\n`)).toEqual({ ok: true });
    expect(checkSignatureSvg(wrap('<rect width="100%" height="100%" fill="white"/><g transform="scale(2)"><polyline points="1,2 3,4"/><line x1="0" y1="0" x2="5" y2="5"/></g>'))).toEqual({ ok: true });
  });

  it.each([
    ["a script element", wrap("<script>alert(1)</script>"), "drawing elements only"],
    ["an uppercase script", wrap("<SCRIPT>alert(1)</SCRIPT>"), "drawing elements only"],
    ["foreignObject", wrap("<foreignObject><div/></foreignObject>"), "drawing elements only"],
    ["an image", wrap('<image href="https://evil.example/x.png"/>'), "drawing elements only"],
    ["a use element", wrap('<use href="#a"/>'), "drawing elements only"],
    ["an onload handler", '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><path d="M0 0"/></svg>', "event handlers"],
    ["an ONCLICK handler on a path", wrap('<path d="M0 0" ONCLICK="x()"/>'), "event handlers"],
    ["an xlink:href", wrap('<path d="M0 0" xlink:href="https://evil.example"/>'), "link"],
    ["a style attribute", wrap('<path d="M0 0" style="fill:url(https://evil.example)"/>'), "attribute style"],
    ["a url() fill", wrap('<path d="M0 0" fill="url(https://evil.example/#p)"/>'), "something other than a drawing"],
    ["an entity", wrap('<path d="M0 0" fill="&xxe;"/>'), "well-formed"],
    ["a DOCTYPE", `<!DOCTYPE svg [<!ENTITY x "y">]>${PAD}`, "DOCTYPE"],
    ["a comment", wrap("<!-- hi -->"), "DOCTYPE, comments or CDATA"],
    ["a processing instruction", wrap('<?xml-stylesheet href="x.css"?>'), "processing instructions"],
    ["text", wrap("<g>hello</g>"), "text"],
    ["another root", '<html><svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg></html>', "drawing elements only"],
    ["two svg roots", `${PAD}${PAD}`, "well-formed"],
    ["a nested svg", wrap('<svg><path d="M0 0"/></svg>'), "nest <svg>"],
    ["an element inside a path", wrap('<path d="M0 0"><circle r="1"/></path>'), "inside <path>"],
    ["an unclosed element", '<svg xmlns="http://www.w3.org/2000/svg"><g><path d="M0 0"/></svg>', "well-formed"],
    ["an element left open", '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/>', "well-formed"],
    ["a foreign namespace", '<svg xmlns="http://www.w3.org/1999/xhtml"><path d="M0 0"/></svg>', "namespace"],
    ["a repeated attribute", wrap('<path d="M0 0" d="M1 1"/>'), "well-formed"],
    ["malformed markup", '<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0></svg>', "well-formed"],
    ["nothing drawn", '<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"/></svg>', "empty"],
    ["not SVG at all", "GIF89a", "text"],
    ["an empty file", "", "must be an <svg>"],
    // Issue 14 finding 1: each was accepted and reached the database (NUL is a 500 there).
    ["a NUL inside an attribute", wrap('<path d="M0 0\u0000"/>'), "well-formed"],
    ["U+0001 inside an attribute", wrap('<path d="M0\u0001 0"/>'), "well-formed"],
    ["a control character as a reference (XML 1.1)", `<?xml version="1.1"?>${wrap('<path d="M0 0&#1;"/>')}`, "control characters"],
    ["a character reference spelling javascript:", wrap('<path d="M0 0" fill="&#x6A;avascript:x"/>'), "something other than a drawing"],
    ["an element that is not closed in the right order", '<svg xmlns="http://www.w3.org/2000/svg"><g><path d="M0 0"></g></path></svg>', "well-formed"],
  ])("refuses %s", (_name, svg, reason) => {
    const verdict = checkSignatureSvg(svg);
    expect(verdict.ok).toBe(false);
    expect(verdict.ok ? "" : verdict.reason).toContain(reason);
  });
});
