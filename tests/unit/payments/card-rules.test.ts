import { describe, expect, it } from "vitest";
import {
  cardBrand,
  cvvLengthsFor,
  isValidCardNumber,
  isValidCvv,
  isValidExpiry,
  maxCardLength,
  parseExpiry,
  passesLuhn,
} from "../../../domain/card-rules.ts";

describe("card rules", () => {
  it("tells the brand from the leading digits, even of a partial number", () => {
    expect(cardBrand("4")).toBe("visa");
    expect(cardBrand("5105")).toBe("mastercard");
    expect(cardBrand("2223 0000")).toBe("mastercard");
    expect(cardBrand("2720")).toBe("mastercard");
    expect(cardBrand("2721")).toBeNull();
    expect(cardBrand("37")).toBe("american-express");
    expect(cardBrand("6011")).toBe("discover");
    expect(cardBrand("65")).toBe("discover");
    expect(cardBrand("3530")).toBe("jcb");
    expect(cardBrand("36")).toBe("diners-club");
    expect(cardBrand("9")).toBeNull();
    expect(cardBrand("")).toBeNull();
  });

  it("checks Luhn and the brand's length", () => {
    expect(passesLuhn("4111111111111111")).toBe(true);
    expect(passesLuhn("4111111111111112")).toBe(false);
    expect(passesLuhn("41x1")).toBe(false);
    expect(isValidCardNumber("4111 1111 1111 1111")).toBe(true);
    expect(isValidCardNumber("378282246310005")).toBe(true);
    // Luhn-valid but 15 digits for Visa.
    expect(isValidCardNumber("411111111111116")).toBe(false);
    expect(isValidCardNumber("0000000000000000")).toBe(false);
    expect(maxCardLength("american-express")).toBe(15);
    expect(maxCardLength(null)).toBe(19);
  });

  it("wants a 4-digit CID for American Express and a 3-digit CVV otherwise", () => {
    expect(cvvLengthsFor("american-express")).toEqual([4]);
    expect(cvvLengthsFor("visa")).toEqual([3]);
    expect(isValidCvv("123", null)).toBe(true);
    expect(isValidCvv("1234", null)).toBe(true);
    expect(isValidCvv("1234", "visa")).toBe(false);
    expect(isValidCvv("12 3", "visa")).toBe(false);
  });

  it("reads MM/YY and MM/YYYY and accepts the current month through twenty years ahead", () => {
    const today = new Date(2026, 10, 21);
    expect(parseExpiry("07/28")).toEqual({ month: 7, year: 2028 });
    expect(parseExpiry("7/2028")).toEqual({ month: 7, year: 2028 });
    expect(parseExpiry("00/28")).toBeNull();
    expect(parseExpiry("0728")).toBeNull();
    expect(isValidExpiry("11/26", today)).toBe(true);
    expect(isValidExpiry("10/26", today)).toBe(false);
    expect(isValidExpiry("12/46", today)).toBe(true);
    expect(isValidExpiry("01/47", today)).toBe(false);
  });
});
