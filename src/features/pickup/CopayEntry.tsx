import { useId } from "react";
import { formatUsd, parseDecimalToCents } from "../../../domain/money.ts";
import { MoneyInput } from "../../ui/MoneyInput.tsx";

/**
 * Spec §5 copay entry: a masked dollar amount and 'No copay'. The machine
 * owns both values (ticking clears the amount, typing unticks); this only
 * shows them and reports changes.
 */
export function CopayEntry({
  label,
  onFile = null,
  copay,
  noCopay,
  invalid,
  disabled,
  onCopayChange,
  onNoCopayChange,
}: {
  label: string;
  /** The copay the order carries, to compare with the bag ("12.50"); null when it has none. */
  onFile?: string | null;
  copay: string;
  noCopay: boolean;
  /** An amount is typed but is not a valid copay yet. */
  invalid: boolean;
  disabled: boolean;
  onCopayChange: (value: string) => void;
  onNoCopayChange: (checked: boolean) => void;
}) {
  const id = useId();
  const onFileCents = parseDecimalToCents(onFile);
  return (
    <div className="copay-entry">
      <div className="field">
        <label className="field__label" htmlFor={`${id}-amount`}>
          {label}
        </label>
        <MoneyInput
          id={`${id}-amount`}
          className="input copay-entry__amount"
          placeholder="$0.00"
          value={copay}
          disabled={disabled}
          aria-invalid={invalid}
          aria-describedby={`${id}-hint`}
          onValueChange={onCopayChange}
        />
        <span id={`${id}-hint`} className={invalid ? "field__hint field__hint--error" : "field__hint"}>
          {onFileCents !== null && <>On the order: {formatUsd(onFileCents)}. </>}
          At least $1.00, with cents (e.g. 12.50). Tick No copay when there is none.
        </span>
      </div>
      <label className="check big-check">
        <input type="checkbox" checked={noCopay} disabled={disabled} onChange={(event) => onNoCopayChange(event.target.checked)} />
        No copay
      </label>
    </div>
  );
}
