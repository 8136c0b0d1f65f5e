import { render, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { useState } from "react";
import { expect, it, vi } from "vitest";
import { MoneyInput } from "../../../src/ui/MoneyInput.tsx";

// imask arrives with its own chunk: hold it back until the test lets it through.
let release!: () => void;
const arrived = new Promise<void>((resolve) => (release = resolve));
vi.mock("imask", async (importOriginal) => {
  await arrived;
  return importOriginal();
});

function Copay({ reported }: { reported: string[] }) {
  const [value, setValue] = useState("");
  return (
    <label>
      Copay
      <MoneyInput
        value={value}
        onValueChange={(next) => {
          reported.push(next);
          setValue(next);
        }}
      />
    </label>
  );
}

it("masks what was typed before the mask arrived as typing, without padding it, and reports it (a slow network)", async () => {
  const user = userEvent.setup();
  const reported: string[] = [];
  render(<Copay reported={reported} />);
  const input = screen.getByRole("textbox", { name: "Copay" });

  await user.click(input);
  await user.keyboard("5.7");
  expect(input).toHaveValue("5.7");
  expect(reported.at(-1)).toBe("5.7");

  release();
  // Not "$5.70" and not "$5.00": the courier may be about to type the second cent.
  await waitFor(() => expect(input).toHaveValue("$5.7"));
  expect(reported.at(-1)).toBe("$5.7");

  // Typing goes on where the courier left off: after the 7.
  await user.keyboard("5");
  expect(input).toHaveValue("$5.75");
  expect(reported.at(-1)).toBe("$5.75");
});
