import { useEffect, useRef, useState, type InputHTMLAttributes } from "react";

/** What this input needs of an imask InputMask. */
interface Mask {
  value: string;
  masked: { append(text: string, flags: { input: boolean }): unknown };
  updateControl(): void;
  updateCursor(position: number): void;
  on(event: "accept", handler: () => void): unknown;
  destroy(): void;
}

/**
 * A dollar amount masked with two decimals (spec §5: "$12.50"). imask loads
 * with the screen's chunk only when the input is on screen. The input is
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
  const mask = useRef<Mask | null>(null);
  const report = useRef(onValueChange);
  const echo = useRef(false);
  // The text it starts with; later values reach the field through the effect below.
  const [initialValue] = useState(value);
  useEffect(() => {
    report.current = onValueChange;
  });

  useEffect(() => {
    let cancelled = false;
    void import("imask").then(({ default: IMask }) => {
      const element = input.current;
      if (cancelled || !element) return;
      // Typed before the mask arrived (a slow network): keep it aside, then
      // replay it as typing. Setting the mask's value instead would commit it —
      // "5" of a "5.75" being typed would become "$5.00" and the rest refused.
      const typedEarly = element.value;
      element.value = "";
      const created = IMask(element, {
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
      });
      created.on("accept", () => {
        if (!echo.current) report.current(created.value);
      });
      mask.current = created;
      if (typedEarly) {
        created.masked.append(typedEarly, { input: true });
        // Shows and reports the masked text, then puts the cursor after it, where typing goes on.
        created.updateControl();
        created.updateCursor(created.value.length);
      }
    });
    return () => {
      cancelled = true;
      mask.current?.destroy();
      mask.current = null;
    };
  }, []);

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
