import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";
import { useLazyMask, type LazyMask } from "./lazy-mask.ts";

const DOLLARS = {
  mask: "$num",
  lazy: true,
  blocks: {
    num: {
      mask: Number,
      scale: 2,
      radix: ".",
      mapToRadix: [","],
      thousandsSeparator: ",",
      // "12.5" becomes "12.50" when the field is left.
      padFractionalZeros: true,
      normalizeZeros: true,
      min: 0,
      max: 99_999.99,
    },
  },
};

/**
 * A dollar amount masked with two decimals (spec §5: "$12.50"); imask loads
 * when the input is on screen (src/ui/lazy-mask.ts). The input is
 * uncontrolled — the mask owns the text — and reports every accepted value;
 * when `value` changes from outside (e.g. 'No copay' clears it) the mask is
 * told, without echoing the change back.
 */
export function MoneyInput({
  value,
  onValueChange,
  ...rest
}: { value: string; onValueChange: (value: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "defaultValue">) {
  const input = useRef<HTMLInputElement>(null);
  const report = useRef(onValueChange);
  const echo = useRef(false);
  // The text it starts with; later values reach the field through the effect below.
  const [initialValue] = useState(value);
  useEffect(() => {
    report.current = onValueChange;
  });
  const mask = useRef<LazyMask | null>(null);
  useLazyMask(input, mask, DOLLARS, (accepted) => {
    if (!echo.current) report.current(accepted);
  });

  useEffect(() => {
    const current = mask.current;
    const element = input.current;
    if (current && current.value !== value) {
      echo.current = true;
      current.value = value;
      echo.current = false;
    } else if (!current && element && element.value !== value) {
      element.value = value;
    }
  }, [value]);

  return (
    <input
      {...rest}
      ref={input}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      defaultValue={initialValue}
      // Until imask has loaded, the raw text still reaches the machine.
      onInput={(event) => {
        if (!mask.current) report.current(event.currentTarget.value);
      }}
    />
  );
}
