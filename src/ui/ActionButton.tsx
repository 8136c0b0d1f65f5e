import { useRef, type ButtonHTMLAttributes } from "react";
import { BUTTON_DEBOUNCE_MS } from "../../domain/texts.ts";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "danger"; block?: boolean };

/** A button whose second tap within 200 ms is ignored (spec §9). */
export function ActionButton({ variant = "primary", block = true, onClick, className, type = "button", ...rest }: Props) {
  // No tap yet: the first one always counts, even in the page's first 200 ms (timeStamp counts from page load).
  const lastTap = useRef(Number.NEGATIVE_INFINITY);
  const classes = ["button", variant !== "primary" && `button--${variant}`, block && "button--block", className]
    .filter(Boolean)
    .join(" ");
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      onClick={(event) => {
        const now = event.timeStamp;
        if (now - lastTap.current < BUTTON_DEBOUNCE_MS) {
          event.preventDefault();
          return;
        }
        lastTap.current = now;
        onClick?.(event);
      }}
    />
  );
}
