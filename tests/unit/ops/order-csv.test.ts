import { describe, expect, it } from "vitest";
import { readCsv } from "../../../domain/order-import/csv-records.ts";
import { columnOf, ORDER_COLUMNS, OrderCsvHeaderError, ordersFromCsv } from "../../../domain/order-import/order-csv.ts";

const HEADER = "external_id,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,rx_numbers,copay";
const row = (id: string, extra = "12.50") => `${id},Ana,Lopez,215-555-0100,1 Main St,Philadelphia,PA,19103,RX1;RX2,${extra}`;
const csv = (...lines: string[]) => lines.join("\n") + "\n";

describe("readCsv: records with their line numbers", () => {
  it("reads a BOM, CRLF, quoted commas and doubled quotes, and a cell over two lines", () => {
    const table = readCsv('\uFEFFa,b\r\n1,"x, ""y"""\r\n2,"two\r\nlines"\r\n3,z\r\n');
    expect(table.header).toEqual(["a", "b"]);
    expect(table.records).toEqual([
      { line: 2, endLine: 2, cells: ["1", 'x, "y"'] },
      { line: 3, endLine: 4, cells: ["2", "two\nlines"] },
      { line: 5, endLine: 5, cells: ["3", "z"] },
    ]);
    expect(table.problems).toEqual([]);
  });

  it("skips blank lines and lines of empty cells, keeping the others' numbers", () => {
    const table = readCsv("a,b\n\n1,2\n   \n,\n\n3,4");
    expect(table.records.map((r) => [r.line, r.cells])).toEqual([[3, ["1", "2"]], [7, ["3", "4"]]]);
  });

  it("reads CR-only line ends (old spreadsheets)", () => {
    expect(readCsv("a,b\r1,2\r3,4").records.map((r) => r.line)).toEqual([2, 3]);
  });

  it("keeps a stray quote inside a cell as written", () => {
    expect(readCsv('a,b\n1,5" tablets\n2,"say "hi" there"\n').records.map((r) => r.cells[1])).toEqual(['5" tablets', '"say "hi" there"']);
  });

  it("a quote never closed is reported on its line, and the lines after it are still read", () => {
    const table = readCsv('a,b\n1,2\n3,"never closed\n\n5,6\n7,8\n');
    expect(table.problems).toEqual([{ line: 3, endLine: 3, reason: "a quote opened on this line is never closed" }]);
    expect(table.records.map((r) => [r.line, r.cells])).toEqual([[2, ["1", "2"]], [5, ["5", "6"]], [6, ["7", "8"]]]);
  });
});

describe("ordersFromCsv: the CSV columns as order bodies", () => {
  it("maps every column (address inside address, money as two-place decimals, lists, booleans, US dates)", () => {
    const header = ORDER_COLUMNS.map((c) => c.name).join(",");
    const cells = [
      "A-1", "Ana", "Lopez", "03/07/1951", "(215) 555-0100", "1 Main St", "Apt 2", "Philadelphia", "pa", "19103",
      "39.95", "-75.16", "RX1; RX2 | RX3", "$12.5", "5", "0.75", "yes", "no", "TRUE", "0",
      '"Ring twice, then knock"', "VIP", "Fridge", "2026-11-25", "14:00", "16:00",
    ];
    const { orders, rejected } = ordersFromCsv(`${header}\n${cells.join(",")}\n`, 4);
    expect(rejected).toEqual([]);
    expect(orders).toHaveLength(1);
    expect(orders[0]).toMatchObject({ line: 2, externalId: "A-1" });
    expect(orders[0]!.body).toEqual({
      pharmacy_id: 4,
      external_id: "A-1",
      patient_first_name: "Ana",
      patient_last_name: "Lopez",
      patient_date_of_birth: "1951-03-07",
      phone_number: "(215) 555-0100",
      address: { street_address: "1 Main St", street_address_2: "Apt 2", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103", latitude: 39.95, longitude: -75.16 },
      rx_numbers: ["RX1", "RX2", "RX3"],
      copay: "12.50",
      delivery_fee: "5.00",
      other_items_amount_due: "0.75",
      pid_order: true,
      collect_identification: false,
      controlled_substance: true,
      signature_required: false,
      delivery_instruction: "Ring twice, then knock",
      superuser_note: "VIP",
      pickup_note: "Fridge",
      service_date: "2026-11-25",
      delivery_window_start: "14:00",
      delivery_window_end: "16:00",
    });
  });

  it("leaves blank optional cells out, and accepts the columns in any order and case", () => {
    const { orders, rejected } = ordersFromCsv(csv("RX_NUMBERS, External_ID ,patient_first_name,patient_last_name,phone_number,street_address,city,state_abbreviation,zipcode,copay", "RX9,B-2,Ana,Lopez,2155550100,1 Main St,Philadelphia,PA,19103,"), 1);
    expect(rejected).toEqual([]);
    expect(orders[0]!.body).toEqual({
      pharmacy_id: 1,
      external_id: "B-2",
      rx_numbers: ["RX9"],
      patient_first_name: "Ana",
      patient_last_name: "Lopez",
      phone_number: "2155550100",
      address: { street_address: "1 Main St", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19103" },
    });
  });

  it("refuses the whole file when the header lacks a column, names an unknown one or one twice", () => {
    expect(() => ordersFromCsv(csv("external_id,patient_first_name", "A,Ana"), 1)).toThrow(
      "The header row missing columns: patient_last_name, phone_number, street_address, city, state_abbreviation, zipcode, rx_numbers.",
    );
    expect(() => ordersFromCsv(csv(`${HEADER},copay_amount`, row("A")), 1)).toThrow(/unknown column: copay_amount/);
    expect(() => ordersFromCsv(csv(`${HEADER},copay`, row("A")), 1)).toThrow(/column named twice: copay/);
    expect(() => ordersFromCsv("", 1)).toThrow(OrderCsvHeaderError);
    expect(() => ordersFromCsv("\n\n", 1)).toThrow(OrderCsvHeaderError);
  });

  it("rejects bad rows by line with reasons in the columns' words, and keeps every good row", () => {
    const text = csv(
      HEADER,
      row("A-1"),
      "",
      row("A-2", "0.50"), // line 4: a copay under 1.00
      "A-3,Ana,Lopez,215-555-0100,1 Main St,Philadelphia,PA,1910,RX1,", // line 5: a bad ZIP
      "A-4,Ana,,215-555-0100,1 Main St,Philadelphia,PA,19103,RX1", // line 6: no last name, a cell short
      'A-5,Ana,Lopez,215-555-0100,"1 Main St, Apt 2",Philadelphia,PA,19103,RX1,abc', // line 7: money is passed on, then refused
      row("A-1", "3.00"), // line 8: external_id again
      'A-6,Ana,Lopez,215-555-0100,"unclosed,Philadelphia,PA,19103,RX1,', // line 9: the quote never closes
      row("A-7"), // line 10: read on after it
    );
    const { orders, rejected } = ordersFromCsv(text, 2);
    expect(orders.map((o) => [o.line, o.externalId])).toEqual([[2, "A-1"], [10, "A-7"]]);
    expect(rejected.map((r) => [r.line, r.externalId, r.reasons])).toEqual([
      [4, "A-2", ["copay must be 0.00 (no copay) or at least 1.00"]],
      [5, "A-3", ["zipcode must be a ZIP code: 5 digits, or 5+4"]],
      [6, "A-4", ["has 9 cells where the header has 10 (a comma inside a cell needs the cell in double quotes)"]],
      [7, "A-5", ["copay must be a decimal amount with two places, e.g. 12.50"]],
      [8, "A-1", ["external_id: A-1 is already on line 2; each order once per file"]],
      [9, null, ["a quote opened on this line is never closed"]],
    ]);
  });

  it("says when a quote left open ran over the line end, and which line's order it took in", () => {
    const text = csv(
      HEADER,
      row("A-1"),
      'A-2,Ana,Lopez,215-555-0100,"1 Main St,Philadelphia,PA,19103,RX1,', // line 3: the quote is closed on line 4
      'A-3,Ana,Lopez,215-555-0100,2 Oak St,Philadelphia,PA,19103,RX1,"',
      row("A-4"),
    );
    const { orders, rejected } = ordersFromCsv(text, 2);
    expect(orders.map((o) => [o.line, o.externalId])).toEqual([[2, "A-1"], [5, "A-4"]]);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ line: 3, endLine: 4, externalId: "A-2" });
    expect(rejected[0]!.reasons[0]).toBe(
      'street_address: a quoted cell opened on line 3 runs over the line end and took in the content of line 4 ("A-3,Ana,Lopez,215-555-0100,2 Oak St,Philadelphia,PA,19103..."); if that line is an order of its own, close the quote on line 3',
    );
  });

  it("refuses a row whose multi-line cell swallowed a whole row, even when its cells add up", () => {
    const header = `${HEADER},delivery_instruction`;
    const text = csv(header, `${row("A-1")},"Ring twice`, `${row("A-2")},knock"`);
    const { orders, rejected } = ordersFromCsv(text, 2);
    expect(orders).toEqual([]);
    expect(rejected.map((r) => [r.line, r.endLine, r.externalId])).toEqual([[2, 3, "A-1"]]);
    expect(rejected[0]!.reasons).toEqual([expect.stringMatching(/^delivery_instruction: a quoted cell opened on line 2 runs over the line end and took in the content of line 3 \("A-2,Ana,Lopez/)]);
    // A note over two lines without a row in it is a note.
    expect(ordersFromCsv(csv(header, `${row("A-1")},"Ring twice`, 'then knock"'), 2).orders).toHaveLength(1);
  });

  it("names the column of a missing value, and of a cell that is not a number or a yes/no", () => {
    const text = csv(`${HEADER},latitude,signature_required`, "A-1,Ana,,215-555-0100,1 Main St,Philadelphia,PA,19103,,,north,maybe");
    const { rejected } = ordersFromCsv(text, 2);
    expect(rejected[0]!.reasons).toEqual(["latitude must be a number, e.g. 39.9526", "signature_required must be true or false (yes/no, 1/0)"]);
    const missing = ordersFromCsv(csv(HEADER, "A-1,Ana,,215-555-0100,1 Main St,Philadelphia,PA,19103,,"), 2).rejected[0]!.reasons;
    expect(missing).toEqual(expect.arrayContaining(["patient_last_name is required", "rx_numbers is required"]));
  });

  it("maps an API error path back to its column", () => {
    expect(columnOf("orders.3.address.zipcode")).toBe("zipcode");
    expect(columnOf(["rx_numbers", 2])).toBe("rx_numbers");
    expect(columnOf("copay")).toBe("copay");
    expect(columnOf("pharmacy_id")).toBeNull();
  });
});

describe("ordersFromCsv: delivery windows (issue 28)", () => {
  it("maps delivery_window_start and delivery_window_end, and rejects a window that ends before it starts", () => {
    const header = `${HEADER},delivery_window_start,delivery_window_end`;
    const { orders, rejected } = ordersFromCsv(csv(header, `${row("W1")},14:00,16:00`, `${row("W2")},16:00,14:00`, `${row("W3")},,`), 3);
    expect(orders.map((o) => [o.externalId, o.body.delivery_window_start, o.body.delivery_window_end])).toEqual([
      ["W1", "14:00", "16:00"],
      ["W3", undefined, undefined],
    ]);
    expect(rejected).toEqual([{ line: 3, endLine: 3, externalId: "W2", reasons: ["delivery_window_end must be after delivery_window_start (16:00)"] }]);
  });
});
