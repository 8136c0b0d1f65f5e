import { z } from "zod";
import { AMOUNT_CEILING_CENTS, centsToDecimal, parseDecimalToCents, type Cents } from "../money.ts";

/**
 * The scalars every request schema is built from, so that a value the API
 * accepts is always one the database can store, and the OpenAPI document states
 * the bounds. A route never declares a bare z.string() / z.number() for a stored value.
 */

// ---------------------------------------------------------------- text

/** C0 controls (and DEL) but tab, newline and carriage return; PostgreSQL refuses NUL outright. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_EXCEPT_LINE_BREAKS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;
/** A UTF-16 surrogate without its pair cannot be written as UTF-8: it would be silently changed. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasControlCharacters(value: string, multiline: boolean): boolean {
  return (multiline ? CONTROL_EXCEPT_LINE_BREAKS : ANY_CONTROL).test(value);
}

export function hasLoneSurrogate(value: string): boolean {
  return LONE_SURROGATE.test(value);
}

export interface TextOptions {
  /** Tab, newline and carriage return are allowed (notes, instructions); never in names. */
  multiline?: boolean;
  /** At least this many characters after trimming (default 0). */
  min?: number;
  /** Leading and trailing whitespace removed (default true). */
  trim?: boolean;
  /** The words when shorter than `min` (default "must not be empty"). */
  tooShort?: string;
}

/** Stored text: at most `max` characters, no control characters, well-formed Unicode. */
export function StoredText(max: number, options: TextOptions = {}) {
  const { multiline = false, min = 0, trim = true, tooShort } = options;
  const base = trim ? z.string().trim() : z.string();
  return base
    .min(min, tooShort ?? (min <= 1 ? "must not be empty" : `must be at least ${min} characters`))
    .max(max, `must be at most ${max} characters`)
    .refine((value) => !hasControlCharacters(value, multiline), {
      message: multiline ? "must not contain control characters other than tab and line breaks" : "must not contain control characters or line breaks",
    })
    .refine((value) => !hasLoneSurrogate(value), { message: "must be valid Unicode text" })
    .meta({
      description: `Text of at most ${max} characters; no control characters${multiline ? " but tab and line breaks" : ""}.`,
    });
}

// ---------------------------------------------------------------- instants

/**
 * A time the phone says something happened. Offline deliveries are sent later, but a
 * queued record expires with the courier's day, so nothing older than 30 days is real;
 * a phone clock a day ahead (a wrong time zone) is still accepted, later is not.
 */
export const INSTANT_WINDOW = { pastDays: 30, futureHours: 24 } as const;

export function isWithinInstantWindow(iso: string, now: number = Date.now()): boolean {
  const time = Date.parse(iso);
  if (!Number.isFinite(time)) return false;
  return time >= now - INSTANT_WINDOW.pastDays * 86_400_000 && time <= now + INSTANT_WINDOW.futureHours * 3_600_000;
}

export const Instant = z.iso
  .datetime({ offset: true, error: "must be an ISO 8601 time with its offset" })
  .refine((value) => isWithinInstantWindow(value), {
    message: `must be within the last ${INSTANT_WINDOW.pastDays} days and not more than ${INSTANT_WINDOW.futureHours} hours ahead`,
  })
  .meta({
    description: `ISO 8601 time with offset, within the last ${INSTANT_WINDOW.pastDays} days and at most ${INSTANT_WINDOW.futureHours} hours after the server's time.`,
  });

// ---------------------------------------------------------------- money

/**
 * The largest amount any request may carry: $99,999.99 (domain/money.ts, the
 * one money rule). No copay, fee or day's cash comes near it, and sums of many
 * lines stay far inside the integer cents columns (2,147,483,647 cents).
 */
export const MONEY_CEILING_CENTS: Cents = AMOUNT_CEILING_CENTS;

export function isWithinMoneyCeiling(value: string): boolean {
  const cents = parseDecimalToCents(value);
  return cents != null && cents <= MONEY_CEILING_CENTS;
}

export const MoneyAmount = z
  .string()
  .regex(/^\d+\.\d{2}$/, "must be a decimal amount with two places, e.g. 12.50")
  .refine(isWithinMoneyCeiling, { message: `must be at most ${centsToDecimal(MONEY_CEILING_CENTS)}` })
  .meta({ description: `Decimal amount with two places, from 0.00 to ${centsToDecimal(MONEY_CEILING_CENTS)}.` });
