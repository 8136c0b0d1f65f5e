import { render, screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { BUTTON_DEBOUNCE_MS } from "../../domain/texts.ts";
import { ActionButton } from "../../src/ui/ActionButton.tsx";

/** A click as the browser stamps it: milliseconds since the page started loading. */
function tapAt(button: HTMLElement, timeStamp: number) {
  const event = new MouseEvent("click", { bubbles: true, cancelable: true });
  Object.defineProperty(event, "timeStamp", { value: timeStamp });
  button.dispatchEvent(event);
}

describe("ActionButton (spec §9: clicks debounced for 200 ms)", () => {
  it("counts the first tap even in the page's first 200 ms, then ignores a second one within 200 ms of it", () => {
    const onClick = vi.fn();
    render(<ActionButton onClick={onClick}>I am present at the address above</ActionButton>);
    const button = screen.getByRole("button", { name: "I am present at the address above" });

    tapAt(button, 60);
    expect(onClick).toHaveBeenCalledTimes(1);
    tapAt(button, 60 + BUTTON_DEBOUNCE_MS - 1);
    expect(onClick).toHaveBeenCalledTimes(1);
    tapAt(button, 60 + BUTTON_DEBOUNCE_MS);
    expect(onClick).toHaveBeenCalledTimes(2);
  });
});
