import { centsToDecimal } from "../../../../domain/money.ts";

/** Largest amount the field takes: $9,999,999.99 is already far beyond any copay. */
const MAX_DIGITS = 9;

/**
 * Spec §5: a copay is entered masked as a dollar amount with two decimals.
 * Digits fill from the right (1 → $0.01, 1250 → $12.50), so there are always
 * two decimals and the amount is exactly what was typed.
 */
export function maskDollars(typed: string): string {
  const digits = typed.replace(/\D/g, "").replace(/^0+/, "").slice(-MAX_DIGITS);
  if (digits === "") return "";
  return `$${centsToDecimal(Number(digits))}`;
}

export function MoneyInput({
  id,
  value,
  onChange,
  disabled,
  describedBy,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  describedBy?: string;
  invalid?: boolean;
}) {
  return (
    <input
      id={id}
      className="input input--money"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="$0.00"
      value={value}
      disabled={disabled}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onChange={(event) => onChange(maskDollars(event.target.value))}
    />
  );
}
