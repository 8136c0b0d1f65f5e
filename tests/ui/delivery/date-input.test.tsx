import { render, screen, waitFor } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { expect, it, vi } from "vitest";
import { DateInput } from "../../../src/features/delivery/steps/DateInput.tsx";

// imask is fetched when the input is on screen: hold it back until the test lets it through.
let release!: () => void;
const arrived = new Promise<void>((resolve) => (release = resolve));
vi.mock("imask", async (importOriginal) => {
  await arrived;
  return importOriginal();
});

it("takes typing before imask arrives, then masks what was typed and what follows as MM/DD/YYYY", async () => {
  const user = userEvent.setup();
  const reported: string[] = [];

  render(
    <>
      <label htmlFor="expiry">Expiration date</label>
      <DateInput id="expiry" value="" onAccept={(value) => reported.push(value)} />
    </>,
  );
  const input = screen.getByRole("textbox", { name: "Expiration date" });
  await user.click(input);
  await user.keyboard("0101");
  expect(input).toHaveValue("0101");
  expect(reported.at(-1)).toBe("0101");

  release();
  await waitFor(() => expect(input).toHaveValue("01/01"));
  expect(reported.at(-1)).toBe("01/01");
  await user.keyboard("2030");
  expect(input).toHaveValue("01/01/2030");
  expect(reported.at(-1)).toBe("01/01/2030");
});

it("shows the date it was given at once, and keeps it when the mask takes over (back to the ID step)", async () => {
  const reported: string[] = [];
  render(<DateInput id="given" value="12/31/2030" onAccept={(value) => reported.push(value)} />);
  expect(screen.getByRole("textbox")).toHaveValue("12/31/2030");
  await waitFor(() => expect(reported).toEqual(["12/31/2030"]));
  expect(screen.getByRole("textbox")).toHaveValue("12/31/2030");
});
