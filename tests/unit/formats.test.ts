import { describe, expect, it, vi } from "vitest";
import { formatAddress } from "../../domain/address.ts";
import { copayCorrectionRefusal, isCopayAbsent, isValidCopay, isValidCorrectedCopay } from "../../domain/copay.ts";
import { calendarDate, isoToUsDate, localCalendarDate, usDateToIso } from "../../domain/dates.ts";
import { centsToDecimal, formatUsd, parseDecimalToCents } from "../../domain/money.ts";
import { formatPhone, phoneForReading, telHref } from "../../domain/phone.ts";

describe("phone display (spec §5 Formats)", () => {
  it.each([
    ["2155550101", "(215) 555-0101"],
    ["(215) 555-0101", "(215) 555-0101"],
    ["215.555.0101", "(215) 555-0101"],
    ["12155550101", "+1 (215) 555-0101"],
    ["+1 215 555 0101", "+1 (215) 555-0101"],
  ])("%s → %s", (raw, shown) => expect(formatPhone(raw)).toBe(shown));

  it.each(["", "555-0101", "22155550101", "121555501011", "abc", "215555010"])("%s gives null", (raw) =>
    expect(formatPhone(raw)).toBeNull(),
  );

  it("null stays null", () => expect(formatPhone(null)).toBeNull());
  it("builds a tel: link with the country code", () => {
    expect(telHref("2155550101")).toBe("tel:+12155550101");
    expect(telHref("18005550199")).toBe("tel:+18005550199");
    expect(telHref("12")).toBeNull();
  });
  it("for reading: a US number formatted, anything else as given, none as null", () => {
    expect(phoneForReading("2155550101")).toBe("(215) 555-0101");
    expect(phoneForReading("12155550101")).toBe("+1 (215) 555-0101");
    expect(phoneForReading("+44 20 7946 0958")).toBe("+44 20 7946 0958");
    expect(phoneForReading("ext. 12")).toBe("ext. 12");
    expect(phoneForReading("  ")).toBeNull();
    expect(phoneForReading(null)).toBeNull();
  });
});

describe("money in cents", () => {
  it("parses two-place decimal strings", () => {
    expect(parseDecimalToCents("12.34")).toBe(1234);
    expect(parseDecimalToCents("0.00")).toBe(0);
    expect(parseDecimalToCents("12.3")).toBeNull();
    expect(parseDecimalToCents("-1.00")).toBeNull();
    expect(parseDecimalToCents(null)).toBeNull();
  });
  it("formats cents", () => {
    expect(centsToDecimal(1234)).toBe("12.34");
    expect(centsToDecimal(5)).toBe("0.05");
    expect(centsToDecimal(null)).toBeNull();
    expect(formatUsd(123456)).toBe("$1,234.56");
  });
  it("writes amounts as Intl's en-US dollars do, without making an Intl formatter (issues 9, 29)", async () => {
    const intl = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
    vi.resetModules();
    const NumberFormat = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = class extends NumberFormat {
      constructor(...args: ConstructorParameters<typeof NumberFormat>) {
        super(...args);
        made++;
      }
    } as typeof NumberFormat;
    try {
      const money = await import("../../domain/money.ts");
      expect(money.formatUsd(1599)).toBe("$15.99");
      expect(money.formatUsd(-5)).toBe("-$0.05");
      const amounts = [0, 1, 9, 10, 99, 100, 101, 99_999, 100_000, 123_456, 9_999_999, 100_000_000, 123_456_789_012, -1, -100, -123_456, -9_999_999];
      for (let cents = 1; cents < 10 ** 13; cents = cents * 7 + 3) amounts.push(cents, -cents);
      for (const cents of amounts) expect(money.formatUsd(cents), String(cents)).toBe(intl.format(cents / 100));
      expect(made).toBe(0);
    } finally {
      Intl.NumberFormat = NumberFormat;
    }
  });
});

describe("copay (spec §5)", () => {
  it("is valid only ending in digit.digitdigit and at least $1.00", () => {
    expect(isValidCopay("1.00")).toBe(true);
    expect(isValidCopay("$12.50")).toBe(true);
    expect(isValidCopay("0.99")).toBe(false);
    expect(isValidCopay("1.0")).toBe(false);
    expect(isValidCopay("10")).toBe(false);
    expect(isValidCopay("")).toBe(false);
  });
  it("is absent when copay and fee are both null or 0.00", () => {
    expect(isCopayAbsent({ copay: null, delivery_fee: "0.00" })).toBe(true);
    expect(isCopayAbsent({ copay: "0.00", delivery_fee: null })).toBe(true);
    expect(isCopayAbsent({ copay: "0.00", delivery_fee: "1.00" })).toBe(false);
  });
  it("a corrected copay needs at least 3 digits and not all zeros", () => {
    expect(isValidCorrectedCopay("1.00")).toBe(true);
    expect(isValidCorrectedCopay("0.00")).toBe(false);
    expect(isValidCorrectedCopay("9")).toBe(false);
  });
  it("a corrected copay is refused once the copay was paid at pickup, and only then", () => {
    const paid = { copay_paid_at: "2026-01-05T09:00:00.000Z" };
    const due = { copay_paid_at: null };
    expect(copayCorrectionRefusal(paid, 2500)).toBe("The copay on this order was already collected at pickup, so it cannot be corrected.");
    expect(copayCorrectionRefusal(paid, null)).toBeNull();
    expect(copayCorrectionRefusal(due, 2500)).toBeNull();
  });
});

describe("addresses and dates", () => {
  it("shows an address on one line with the optional second line", () => {
    const base = { street_address: "1200 Spruce St", city: "Philadelphia", state_abbreviation: "PA", zipcode: "19107" };
    expect(formatAddress(base)).toBe("1200 Spruce St, Philadelphia, PA 19107");
    expect(formatAddress({ ...base, street_address_2: "Apt 4B" })).toBe("1200 Spruce St, Apt 4B, Philadelphia, PA 19107");
  });
  it("reads MM/DD/YYYY and refuses impossible dates", () => {
    expect(usDateToIso("02/29/2028")).toBe("2028-02-29");
    expect(usDateToIso("02/30/2028")).toBeNull();
    expect(usDateToIso("13/01/2028")).toBeNull();
    expect(isoToUsDate("1948-03-14")).toBe("03/14/1948");
  });
  it("takes the courier's calendar day in the service time zone", () => {
    expect(calendarDate(new Date("2026-11-22T03:00:00Z"), "America/New_York")).toBe("2026-11-21");
  });
  it("takes the device's calendar day as the device's time zone has it", () => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    // Every hour of a day and its neighbours, so a zone's offset shows wherever it falls.
    for (let hour = -24; hour <= 48; hour++) {
      const instant = new Date(Date.UTC(2026, 10, 21, hour, 30));
      expect(localCalendarDate(instant)).toBe(calendarDate(instant, zone));
    }
    expect(localCalendarDate(new Date(2026, 0, 5, 23, 59))).toBe("2026-01-05");
  });
});
