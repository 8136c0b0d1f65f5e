import type IMask from "imask";
import { useRef, useState } from "react";
import { useLazyMask, type LazyMask } from "../../../ui/lazy-mask.ts";

const DATE = (imask: typeof IMask) => ({
  mask: "MM/DD/YYYY",
  lazy: true,
  blocks: {
    MM: { mask: imask.MaskedRange, from: 1, to: 12, maxLength: 2, autofix: "pad" as const },
    DD: { mask: imask.MaskedRange, from: 1, to: 31, maxLength: 2, autofix: "pad" as const },
    YYYY: { mask: imask.MaskedRange, from: 1900, to: 2999, maxLength: 4 },
  },
});

/**
 * A date typed as MM/DD/YYYY through an imask mask (spec §5: expiry mask and
 * pattern), imask loaded when the input is on screen (src/ui/lazy-mask.ts).
 * Uncontrolled: the mask owns the input's text and reports each accepted
 * value; until it has loaded, the raw text is reported.
 */
export function DateInput({
  id,
  value,
  onAccept,
  describedBy,
  invalid,
}: {
  id: string;
  value: string;
  onAccept: (value: string) => void;
  describedBy?: string;
  invalid?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  // The first value only: afterwards the mask is the source of the text.
  const [initialValue] = useState(value);
  const mask = useRef<LazyMask | null>(null);
  useLazyMask(input, mask, DATE, onAccept);

  return (
    <input
      ref={input}
      id={id}
      className="input"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="MM/DD/YYYY"
      defaultValue={initialValue}
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
      onInput={(event) => {
        if (!mask.current) onAccept(event.currentTarget.value);
      }}
    />
  );
}
