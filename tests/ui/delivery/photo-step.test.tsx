import { screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { TEXT } from "../../../domain/texts.ts";
import { makeOrder, makePharmacy } from "../../support/order-fixtures.ts";
import { PHOTO } from "../../support/delivery-flow-events.ts";
import { callOf, clickEnabled, itineraryWith, renderDelivery, resetHarness } from "./delivery-harness.tsx";

vi.mock("../../../src/api/deliveries.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.deliveries }));
vi.mock("../../../src/api/payments.ts", async (original) => ({ ...(await original()), ...(await import("./delivery-mocks.ts")).deliveryMocks.payments }));
// The image code needs a canvas (jsdom has none); Chromium runs it for real in tests/e2e/photo-proof.test.ts.
const shrinkPhoto = vi.fn();
vi.mock("../../../src/features/delivery/photo/shrink-photo.ts", () => ({ shrinkPhoto: (file: Blob) => shrinkPhoto(file) }));

/** Issue 19: the photo screen's own behaviour around the machine. */

const order = makeOrder({
  id: 90,
  status: "picked_up",
  copay: "0.00",
  delivery_fee: "0.00",
  pharmacy: makePharmacy({ id: 3, pod_recipient_config: "covid19_contactless", pod_photo_required: true }),
});
const base = `/pharmacies/3/deliver_orders/90`;

beforeEach(() => {
  resetHarness();
  shrinkPhoto.mockReset();
});
afterEach(() => vi.clearAllMocks());

async function atPhotoStep() {
  const { user } = renderDelivery(itineraryWith([order]), `${base}/address`);
  await clickEnabled(user, TEXT.presentAtAddress);
  await user.type(await screen.findByLabelText("Courier notes"), "Left in the lockbox");
  await clickEnabled(user, TEXT.continue);
  await screen.findByRole("heading", { name: "Photo of the drop-off" });
  return user;
}

it("opens the rear camera through a plain file input, and holds Continue while the pharmacy requires a photo", async () => {
  await atPhotoStep();
  const input = screen.getByLabelText("Take a photo");
  expect(input).toHaveAttribute("type", "file");
  expect(input).toHaveAttribute("accept", "image/*");
  expect(input).toHaveAttribute("capture", "environment");
  expect(screen.getByText("This pharmacy requires a photo.")).toBeVisible();
  expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
  expect(screen.getByRole("button", { name: TEXT.continue })).toHaveAccessibleDescription("This pharmacy requires a photo of the drop-off.");
});

it("a file that is not a usable photo says so in words and keeps the courier on the step; a retake works", async () => {
  const user = await atPhotoStep();
  shrinkPhoto.mockRejectedValueOnce(new Error("This file could not be read as a photo. Take the photo again."));
  await user.upload(screen.getByLabelText("Take a photo"), new File(["not an image at all"], "IMG_2.jpg", { type: "image/jpeg" }));
  expect(await screen.findByRole("alert")).toHaveTextContent("This file could not be read as a photo. Take the photo again.");
  expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();

  shrinkPhoto.mockResolvedValueOnce(PHOTO);
  const camera = new File([new Uint8Array([0xff, 0xd8, 0xff])], "IMG_1.jpg", { type: "image/jpeg" });
  await user.upload(screen.getByLabelText("Take a photo"), camera);
  const preview = await screen.findByRole("img", { name: "Your photo of where the medication was left" });
  expect(preview).toHaveAttribute("src", PHOTO.data_url);
  expect(shrinkPhoto).toHaveBeenLastCalledWith(camera);
  expect(screen.queryByRole("alert")).toBeNull();
  expect(screen.getByLabelText("Retake photo")).toBeInTheDocument();

  await clickEnabled(user, TEXT.continue);
  const call = await callOf("submitRecipient");
  expect(call.input).toMatchObject({ relationship_id: 4, photo: PHOTO });
});

it("Remove photo takes it away again, and Back returns to the recipient step with the notes kept", async () => {
  const user = await atPhotoStep();
  shrinkPhoto.mockResolvedValueOnce(PHOTO);
  await user.upload(screen.getByLabelText("Take a photo"), new File([new Uint8Array([0xff, 0xd8, 0xff])], "a.jpg", { type: "image/jpeg" }));
  await screen.findByRole("img", { name: "Your photo of where the medication was left" });
  await clickEnabled(user, "Remove photo");
  await waitFor(() => expect(screen.queryByRole("img", { name: "Your photo of where the medication was left" })).toBeNull());
  expect(screen.getByRole("button", { name: TEXT.continue })).toBeDisabled();
  await clickEnabled(user, "Back");
  expect(await screen.findByLabelText("Courier notes")).toHaveValue("Left in the lockbox");
});
