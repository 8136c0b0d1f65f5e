import { useRef, type ButtonHTMLAttributes } from "react";
import { BUTTON_DEBOUNCE_MS } from "../../domain/texts.ts";

type Props = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: "primary" | "secondary" | "danger"; block?: boolean };

/** A button whose second tap within 200 ms is ignored (spec §9). */
export function ActionButton({ variant = "primary", block = true, onClick, className, type = "button", ...rest }: Props) {
  const lastTap = useRef(0);
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
