// csv-parse's browser build (it brings its own Buffer): the same reader runs in the CLI, the console and the machines' visualizer (decision 0033).
import { parse, type CsvError } from "csv-parse/browser/esm/sync";

/** One data record of a CSV file, with the lines it came from (a quoted cell may span several). */
export interface CsvRecord {
  /** 1-based line of the file where the record starts. */
  line: number;
  /** 1-based line where it ends (the same line unless a quoted cell holds line breaks). */
  endLine: number;
  cells: string[];
}

/** A part of the file that is not a record: reported by line, never silently dropped. */
export interface CsvProblem {
  line: number;
  endLine: number;
  reason: string;
}

export interface CsvTable {
  /** The header's cells, trimmed. */
  header: string[];
  /** The header's line. */
  headerLine: number;
  records: CsvRecord[];
  problems: CsvProblem[];
}

const LINE_BREAK = /\n/g;

function lineBreaks(text: string): number {
  return text.match(LINE_BREAK)?.length ?? 0;
}

/** The offset in `text` where each line starts: starts[0] is line 1. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (const match of text.matchAll(LINE_BREAK)) starts.push(match.index + match[0].length);
  return starts;
}

const isBlank = (cells: string[]) => cells.every((cell) => cell.trim() === "");

/**
 * A CSV file as records with their line numbers, read by csv-parse (RFC 4180:
 * quoted cells may hold commas, quotes doubled, line breaks). What a
 * spreadsheet or a hand edit leaves behind is handled rather than fatal:
 * - a byte-order mark, CRLF, CR or LF line ends (a line break inside a cell becomes LF);
 * - blank lines, and lines of empty cells (",,,,"), are skipped;
 * - a stray quote inside a cell (`5" tablets`) is kept as written (relax_quotes);
 * - a quote opened and never closed would swallow the rest of the file into one
 *   cell: that line is reported, and reading goes on from the next line.
 * Records with a different number of cells from the header are returned as
 * they are (the caller says which line is wrong).
 */
export function readCsv(source: string): CsvTable {
  // One kind of line end: csv-parse counts a CRLF inside a quoted cell as two lines, which would shift every later line number.
  const text = source.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const starts = lineStarts(text);
  const lineCount = starts.length;
  const rows: CsvRecord[] = [];
  const problems: CsvProblem[] = [];

  // From a 1-based line on; after an unclosed quote, again from the line after it.
  let fromLine = 1;
  while (fromLine <= lineCount) {
    const offset = fromLine - 1;
    let unclosed = false;
    const parsed = parse(text.slice(starts[offset]), {
      relax_quotes: true,
      relax_column_count: true,
      skip_empty_lines: true,
      skip_records_with_error: true,
      info: true,
      on_skip: (error: CsvError | undefined) => {
        if (error?.code === "CSV_QUOTE_NOT_CLOSED") unclosed = true;
        else if (error) {
          const line = offset + Number((error as { lines?: number }).lines ?? 1);
          problems.push({ line, endLine: line, reason: error.message });
        }
      },
    }) as unknown as { record: string[]; info: { lines: number } }[];
    let lastEnd = offset;
    for (const { record, info } of parsed) {
      const endLine = offset + info.lines;
      lastEnd = endLine;
      const line = endLine - record.reduce((sum, cell) => sum + lineBreaks(cell), 0);
      if (!isBlank(record)) rows.push({ line, endLine, cells: record });
    }
    if (!unclosed) break;
    // Only the file's end shows a quote never closed: the record starts at the first non-blank line after the last good one.
    let open = lastEnd + 1;
    while (open < lineCount && text.slice(starts[open - 1], starts[open]).trim() === "") open += 1;
    problems.push({ line: open, endLine: open, reason: "a quote opened on this line is never closed" });
    fromLine = open + 1;
  }

  const [head, ...records] = rows;
  if (!head) return { header: [], headerLine: 0, records: [], problems };
  return { header: head.cells.map((cell) => cell.trim()), headerLine: head.line, records, problems };
}
