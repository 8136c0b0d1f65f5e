import { expect, it } from "vitest";
import { deliveryInstructions } from "../../domain/delivery-notes.ts";

it("shows delivery instructions but never courier notes or blank notes (spec §6)", () => {
  const notes = [
    { courier_note: false, delivery_instruction: " Leave with doorman. ", superuser_note: false },
    { courier_note: true, delivery_instruction: "Dog in yard.", superuser_note: false },
    { courier_note: false, delivery_instruction: "Verify ID against the label.", superuser_note: true },
    { courier_note: false, delivery_instruction: "   ", superuser_note: false },
  ];
  expect(deliveryInstructions({ delivery_notes: notes })).toEqual([
    { text: "Leave with doorman.", important: false },
    { text: "Verify ID against the label.", important: true },
  ]);
});
