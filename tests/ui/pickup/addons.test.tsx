import { screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import * as api from "../../../src/api/pickup.ts";
import { currentDay, makeDay, order, renderPickup, RIVERSIDE } from "./harness.tsx";

vi.mock("../../../src/api/pickup.ts");

const MINE = order(1, "Eleanor", "Abernathy", { service_window_instance_id: 9100 });
const OFFERED = [
  order(21, "Kevin", "Lambert", { copay: "5.00", service_window_instance_id: null }),
  order(22, "Monica", "Lopez", { service_window_instance_id: null }),
  order(23, "Nathan", "Moore", { copay: "12.00", service_window_instance_id: null }),
  order(24, "Olivia", "Reed", { service_window_instance_id: null }),
];
const path = `/pharmacies/${RIVERSIDE.id}/addons`;
const choose = (name: string) => screen.getByRole("checkbox", { name: `Add ${name}` });
const rowOf = (name: string) => screen.getByRole("article", { name });

async function open(orders = [MINE], flags = { self_service_addons_enabled: true }) {
  const view = renderPickup(path, makeDay({ orders, feature_flags: flags }));
  await screen.findByRole("heading", { name: "add-ons" });
  return view;
}

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(api.fetchAddons).mockResolvedValue(OFFERED);
  vi.mocked(api.submitAddons).mockResolvedValue([]);
});

describe("add-ons (spec §2, §4, §5)", () => {
  it("lists the add-ons on offer; choosing one asks for its copay; Review waits for 'No copay' or a valid copay", async () => {
    const user = userEvent.setup();
    await open();
    await screen.findByText("Kevin Lambert");
    expect(api.fetchAddons).toHaveBeenCalledWith(RIVERSIDE.id);
    expect(screen.getAllByRole("article")).toHaveLength(4);
    const review = screen.getByRole("button", { name: "Review add-ons" });
    expect(review).toBeDisabled();

    await user.click(choose("Kevin Lambert"));
    const copay = within(rowOf("Kevin Lambert")).getByRole("textbox", { name: "Copay for Kevin Lambert" });
    expect(review).toBeDisabled();
    await user.type(copay, "0.50");
    expect(review).toBeDisabled();
    await user.clear(copay);
    await user.type(copay, "5.00");
    await waitFor(() => expect(review).toBeEnabled());

    await user.click(within(rowOf("Kevin Lambert")).getByRole("checkbox", { name: "No copay" }));
    await waitFor(() => expect(copay).toHaveValue(""));
    expect(review).toBeEnabled();
  });

  it("a fourth choice is refused with 'Max addon count reached'", async () => {
    const user = userEvent.setup();
    await open();
    await screen.findByText("Kevin Lambert");
    for (const name of ["Kevin Lambert", "Monica Lopez", "Nathan Moore"]) await user.click(choose(name));
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(choose("Olivia Reed"));
    expect(screen.getByRole("alert")).toHaveTextContent("Max addon count reached");
    expect(choose("Olivia Reed")).not.toBeChecked();
    expect(screen.getByText("3 of 3 add-ons")).toBeInTheDocument();
  });

  it("add-ons taken earlier today count toward the 3", async () => {
    const user = userEvent.setup();
    const earlier = [order(31, "Ann", "Added", { status: "picked_up", addedOn: true }), order(32, "Bob", "Added", { status: "picked_up", addedOn: true })];
    await open([MINE, ...earlier]);
    await screen.findByText("Kevin Lambert");
    expect(screen.getByText("2 of 3 add-ons (2 added earlier)")).toBeInTheDocument();
    await user.click(choose("Kevin Lambert"));
    await user.click(choose("Monica Lopez"));
    expect(screen.getByRole("alert")).toHaveTextContent("Max addon count reached");
  });

  it("Help opens its sub-view and comes back to the choice as it was", async () => {
    const user = userEvent.setup();
    await open();
    await screen.findByText("Kevin Lambert");
    await user.click(choose("Monica Lopez"));
    await user.click(screen.getByRole("button", { name: "Help" }));
    expect(screen.getByRole("heading", { name: "add-ons help" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Call support +1 (800) 555-0199" })).toHaveAttribute("href", "tel:+18005550199");
    await user.click(screen.getByRole("button", { name: "Back to add-ons" }));
    expect(choose("Monica Lopez")).toBeChecked();
  });

  it("confirm posts the choice and adds the orders to the day as picked up with addedOn, then back to check-in", async () => {
    const user = userEvent.setup();
    const view = await open();
    await screen.findByText("Kevin Lambert");
    await user.click(choose("Kevin Lambert"));
    await user.type(within(rowOf("Kevin Lambert")).getByRole("textbox", { name: "Copay for Kevin Lambert" }), "5.00");
    await user.click(choose("Monica Lopez"));
    await user.click(within(rowOf("Monica Lopez")).getByRole("checkbox", { name: "No copay" }));
    await user.click(screen.getByRole("button", { name: "Review add-ons" }));

    expect(screen.getByRole("heading", { name: "confirm add-ons" })).toBeInTheDocument();
    expect(screen.getByText("Copay $5.00")).toBeInTheDocument();
    expect(screen.getByText("No copay")).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Add 2 orders" }));

    await waitFor(() => expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders`));
    expect(api.submitAddons).toHaveBeenCalledWith(RIVERSIDE.id, {
      orders: [{ id: 21, copay: "5.00" }, { id: 22, copay: "0.00" }],
      service_window_instance_id: 9100,
    });
    const added = currentDay()!.orders.filter((candidate) => candidate.addedOn);
    expect(added.map((candidate) => [candidate.id, candidate.status.name, candidate.copay])).toEqual([
      [21, "picked_up", "5.00"],
      [22, "picked_up", "0.00"],
    ]);
    expect(within(await screen.findByRole("article", { name: "Kevin Lambert" })).getByRole("img", { name: "verified" })).toBeInTheDocument();
  });

  it("a refusal on confirm shows the server's words on the confirm sub-view", async () => {
    const refused: ApiFailure = { kind: "refused", status: 409, message: "Order 21 has already been taken by another courier.", code: "conflict" };
    vi.mocked(api.submitAddons).mockRejectedValueOnce(refused);
    const user = userEvent.setup();
    await open();
    await screen.findByText("Kevin Lambert");
    await user.click(choose("Kevin Lambert"));
    await user.click(within(rowOf("Kevin Lambert")).getByRole("checkbox", { name: "No copay" }));
    await user.click(screen.getByRole("button", { name: "Review add-ons" }));
    await user.click(screen.getByRole("button", { name: "Add 1 order" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Order 21 has already been taken by another courier.");
    expect(screen.getByRole("heading", { name: "confirm add-ons" })).toBeInTheDocument();
  });

  it("a failed load shows the spec §8 text and Try again", async () => {
    vi.mocked(api.fetchAddons).mockRejectedValueOnce({ kind: "server", status: 500, message: "boom", code: null } satisfies ApiFailure);
    const user = userEvent.setup();
    await open();
    expect(await screen.findByRole("alert")).toHaveTextContent("Something went wrong. Please try again.");
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByText("Kevin Lambert")).toBeInTheDocument();
    expect(api.fetchAddons).toHaveBeenCalledTimes(2);
  });

  it("without the self-service flag a deep link goes back to the check-in list", async () => {
    const view = renderPickup(path, makeDay({ orders: [MINE], feature_flags: { self_service_addons_enabled: false } }));
    await screen.findByRole("heading", { name: "check-in" });
    expect(view.location()).toBe(`/pharmacies/${RIVERSIDE.id}/verify_orders`);
    expect(api.fetchAddons).not.toHaveBeenCalled();
  });
});
