import { render, screen, waitFor, within } from "@testing-library/react";
import { userEvent } from "@testing-library/user-event";
import { createMemoryRouter, RouterProvider } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { ItineraryResponse } from "../../../domain/contract/itinerary.ts";
import * as pickupApi from "../../../src/api/pickup.ts";
import * as sessionsApi from "../../../src/api/sessions.ts";
import { LoggedInLayout } from "../../../src/app/LoggedInLayout.tsx";
import { CourierAppContext } from "../../../src/shell/app-actor.ts";
import { Component as PharmacyVisitsRoute } from "../../../src/features/pickup/PharmacyVisitsRoute.tsx";
import { COURIER_ID, currentDay, makeDay, makePharmacy, makeVisit, renderPickup, RIVERSIDE } from "./harness.tsx";

vi.mock("../../../src/api/pickup.ts");
vi.mock("../../../src/api/sessions.ts");

const LAKESIDE = makePharmacy({
  id: 5,
  name: "Lakeside Specialty Pharmacy",
  address: { street_address: "7300 Frankford Ave", street_address_2: null, city: "Philadelphia", state_abbreviation: "PA", zipcode: "19136", latitude: null, longitude: null },
});
const MARKET = makePharmacy({ id: 2, name: "Market Street Apothecary" });
const PENDING_LAKESIDE = makeVisit({ id: 11, pharmacy: LAKESIDE, confirmed: null });
const PENDING_MARKET = makeVisit({ id: 12, pharmacy: MARKET, confirmed: null });
const CONFIRMED = makeVisit({ id: 10, pharmacy: RIVERSIDE, confirmed: true });

const dayWith = (...visits: ReturnType<typeof makeVisit>[]) => makeDay({ pharmacy_visits: [CONFIRMED, ...visits] });
const submit = () => screen.getByRole("button", { name: "Submit" });
const visitGroup = (name: string) => screen.getByRole("group", { name: new RegExp(name) });

beforeEach(() => {
  vi.resetAllMocks();
  vi.mocked(pickupApi.confirmVisits).mockImplementation(async (_courierId, answers) =>
    answers.map((answer) => ({ ...(answer.id === PENDING_LAKESIDE.id ? PENDING_LAKESIDE : PENDING_MARKET), confirmed: answer.confirmed })),
  );
});

describe("/confirm_pharmacy_visits (spec §2, §7, §8)", () => {
  it("lists each pending visit with the pharmacy's name and address; submit waits for an answer to each", async () => {
    const user = userEvent.setup();
    renderPickup("/confirm_pharmacy_visits", dayWith(PENDING_LAKESIDE, PENDING_MARKET));
    await screen.findByRole("heading", { name: "Confirm pharmacy visits" });
    expect(screen.getAllByRole("group")).toHaveLength(2);
    expect(visitGroup("Lakeside")).toHaveAccessibleName("Lakeside Specialty Pharmacy");
    expect(visitGroup("Lakeside")).toHaveAccessibleDescription("7300 Frankford Ave, Philadelphia, PA 19136");
    expect(screen.queryByRole("group", { name: /Riverside/ })).toBeNull();
    expect(submit()).toBeDisabled();
    await user.click(within(visitGroup("Lakeside")).getByRole("radio", { name: "Yes, available" }));
    expect(submit()).toBeDisabled();
    await user.click(within(visitGroup("Market")).getByRole("radio", { name: "No, not available" }));
    expect(submit()).toBeEnabled();
  });

  it("submit posts the answers, updates the day's visits and goes to /pharmacies", async () => {
    const user = userEvent.setup();
    const view = renderPickup("/confirm_pharmacy_visits", dayWith(PENDING_LAKESIDE, PENDING_MARKET));
    await screen.findByRole("heading", { name: "Confirm pharmacy visits" });
    await user.click(within(visitGroup("Lakeside")).getByRole("radio", { name: "Yes, available" }));
    await user.click(within(visitGroup("Market")).getByRole("radio", { name: "No, not available" }));
    await user.click(submit());
    await waitFor(() => expect(view.location()).toBe("/pharmacies"));
    expect(pickupApi.confirmVisits).toHaveBeenCalledWith(COURIER_ID, [
      { id: PENDING_LAKESIDE.id, confirmed: true },
      { id: PENDING_MARKET.id, confirmed: false },
    ]);
    expect(currentDay()!.pharmacy_visits.map((visit) => [visit.id, visit.confirmed])).toEqual([
      [CONFIRMED.id, true],
      [PENDING_LAKESIDE.id, true],
      [PENDING_MARKET.id, false],
    ]);
  });

  it("a failed submit shows the exact spec §8 text and leaves submit disabled", async () => {
    vi.mocked(pickupApi.confirmVisits).mockRejectedValueOnce({ kind: "server", status: 500, message: "boom", code: null } satisfies ApiFailure);
    const user = userEvent.setup();
    const view = renderPickup("/confirm_pharmacy_visits", dayWith(PENDING_LAKESIDE));
    await screen.findByRole("heading", { name: "Confirm pharmacy visits" });
    await user.click(screen.getByRole("radio", { name: "Yes, available" }));
    await user.click(submit());
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toBe(
      "There was a technical error upon submit, please contact Rx Courier support by pressing the HELP button to confirm your availability",
    );
    expect(submit()).toBeDisabled();
    expect(screen.getByRole("radio", { name: "Yes, available" })).toBeDisabled();
    expect(view.location()).toBe("/confirm_pharmacy_visits");
    expect(currentDay()!.pharmacy_visits.find((visit) => visit.id === PENDING_LAKESIDE.id)?.confirmed).toBeNull();
  });

  it("with nothing pending, goes straight on to /pharmacies", async () => {
    const view = renderPickup("/confirm_pharmacy_visits", dayWith());
    await waitFor(() => expect(view.location()).toBe("/pharmacies"));
    expect(pickupApi.confirmVisits).not.toHaveBeenCalled();
  });
});

describe("pending-visit redirect in the logged-in layout (spec §2)", () => {
  function renderApp(day: ItineraryResponse, path: string) {
    vi.mocked(sessionsApi.fetchCurrentSession).mockResolvedValue({ courier: day.courier, csrf_token: "token" });
    vi.mocked(sessionsApi.fetchItinerary).mockResolvedValue(day);
    const router = createMemoryRouter(
      [
        {
          element: <LoggedInLayout />,
          children: [
            { path: "dashboard", element: <h1>Dashboard</h1> },
            { path: "pharmacies", element: <h1>Pharmacies home</h1> },
            { path: "confirm_pharmacy_visits", element: <PharmacyVisitsRoute /> },
          ],
        },
      ],
      { initialEntries: [path] },
    );
    render(
      <CourierAppContext.Provider>
        <RouterProvider router={router} />
      </CourierAppContext.Provider>,
    );
    return router;
  }

  it.each(["/dashboard", "/pharmacies"])("%s redirects to /confirm_pharmacy_visits while a visit is pending, and opens once it is answered", async (path) => {
    const user = userEvent.setup();
    const router = renderApp(dayWith(PENDING_LAKESIDE), path);
    await screen.findByRole("heading", { name: "Confirm pharmacy visits" });
    expect(router.state.location.pathname).toBe("/confirm_pharmacy_visits");
    await user.click(screen.getByRole("radio", { name: "Yes, available" }));
    await user.click(submit());
    await screen.findByRole("heading", { name: "Pharmacies home" });
    await router.navigate(path);
    expect(router.state.location.pathname).toBe(path);
  });

  it("does not redirect when no visit is pending (declined counts as answered)", async () => {
    const router = renderApp(dayWith(makeVisit({ id: 11, pharmacy: LAKESIDE, confirmed: false })), "/dashboard");
    await screen.findByRole("heading", { name: "Dashboard" });
    expect(router.state.location.pathname).toBe("/dashboard");
  });
});
