import IMask from "imask";
import { useEffect, useRef } from "react";

/**
 * A date typed as MM/DD/YYYY through an imask mask (spec §5: expiry mask and
 * pattern). Uncontrolled: the mask owns the input's text and reports each
 * accepted value.
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
  const latest = useRef(onAccept);
  useEffect(() => {
    latest.current = onAccept;
  });
  // The first value only: afterwards the mask is the source of the text.
  const initial = useRef(value);

  useEffect(() => {
    const element = input.current!;
    const mask = IMask(element, {
      mask: "MM/DD/YYYY",
      lazy: true,
      blocks: {
        MM: { mask: IMask.MaskedRange, from: 1, to: 12, maxLength: 2, autofix: "pad" },
        DD: { mask: IMask.MaskedRange, from: 1, to: 31, maxLength: 2, autofix: "pad" },
        YYYY: { mask: IMask.MaskedRange, from: 1900, to: 2999, maxLength: 4 },
      },
    });
    mask.value = initial.current;
    mask.on("accept", () => latest.current(mask.value));
    return () => mask.destroy();
  }, []);

  return (
    <input
      ref={input}
      id={id}
      className="input"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder="MM/DD/YYYY"
      aria-describedby={describedBy}
      aria-invalid={invalid || undefined}
    />
  );
}
