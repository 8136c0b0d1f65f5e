import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

/** docs/decisions/: one file per decision, each in the index with its status and date. */

const DIR = "docs/decisions";
const files = readdirSync(DIR).filter((name) => /^\d{4}-/.test(name)).sort();
const header = (name: string) => /^# (\d{4}) (.+)\n\nStatus: (accepted|superseded by \d{4})\nDate: (\d{4}-\d{2}-\d{2})\n\n/.exec(readFileSync(`${DIR}/${name}`, "utf8"));

describe("docs/decisions", () => {
  it("numbers its decisions 0001 onwards with no gap, each file opening with its number, title, status and date", () => {
    expect(files.length).toBeGreaterThan(0);
    files.forEach((name, index) => {
      expect(name, name).toMatch(/^\d{4}-[a-z0-9]+(-[a-z0-9]+)*\.md$/);
      expect(name.slice(0, 4), name).toBe(String(index + 1).padStart(4, "0"));
      expect(header(name)?.[1], `${name} opens with "# NNNN Title", "Status:" and "Date:"`).toBe(name.slice(0, 4));
    });
  });

  it("lists every decision in its README, with the status and date the file gives", () => {
    const readme = readFileSync(`${DIR}/README.md`, "utf8");
    const rows = readme.split("\n").filter((line) => /^\| \d{4} \|/.test(line));
    expect(rows).toEqual(
      files.map((name) => {
        const [, number, title, status, date] = header(name)!;
        return `| ${number} | [${title!.replaceAll("|", "\\|")}](${name}) | ${status} | ${date} |`;
      }),
    );
  });
});
