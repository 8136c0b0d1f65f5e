/**
 * Spec §5 Formats: strip non-digits; accept an optional leading 1 plus 10
 * digits; show as (###) ###-####, prefixed +1 when the leading 1 is present.
 * Anything else gives null.
 */
export function formatPhone(raw: string | null | undefined): string | null {
  if (raw == null) return null;
  const digits = raw.replace(/\D/g, "");
  const match = /^(1)?(\d{3})(\d{3})(\d{4})$/.exec(digits);
  if (!match) return null;
  const [, countryCode, area, exchange, line] = match;
  const local = `(${area}) ${exchange}-${line}`;
  return countryCode ? `+1 ${local}` : local;
}

/** The digits to dial in a tel: link, or null when the number is not valid. */
export function telHref(raw: string | null | undefined): string | null {
  if (formatPhone(raw) == null) return null;
  const digits = raw!.replace(/\D/g, "");
  return `tel:+${digits.length === 10 ? `1${digits}` : digits}`;
}

/** A phone number for reading wherever one is shown: a US number as formatPhone writes it, anything else as given; null or blank is null. */
export function phoneForReading(raw: string | null | undefined): string | null {
  if (raw == null || raw.trim() === "") return null;
  return formatPhone(raw) ?? raw;
}
