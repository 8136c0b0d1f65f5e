import { act, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { fromCallback, fromPromise } from "xstate";
import type { ApiFailure } from "../../../domain/api-failure.ts";
import type { CourierInviteRequest, CourierInviteResponse, OpsCourier } from "../../../domain/contract/ops.ts";
import { consoleCouriersMachine, type ConsoleCouriersEvent, type CouriersData } from "../../../machines/console-couriers.machine.ts";
import { courier, PHARMACIST, renderConsole } from "./console-fixtures.tsx";

const DANA = courier(7, "Dana", "Whitfield", { phone_number: "215-555-0142" });
const SAM = courier(8, "Sam", "Okafor", { password_set: false });
const GONE = courier(9, "Lee", "Park", { active: false, phone_number: "+44 20 7946 0958" });
const DAY: CouriersData = { couriers: [DANA, SAM, GONE], progress: { 7: { delivered: 3, attempted: 1, left: 5 } } };

function couriersLogic(overrides: Partial<{ load: () => Promise<CouriersData>; invite: (request: CourierInviteRequest) => Promise<CourierInviteResponse>; deactivate: (id: number) => Promise<OpsCourier>; reinvite: (id: number) => Promise<CourierInviteResponse> }> = {}) {
  const calls = { invite: vi.fn(overrides.invite ?? (async (request: CourierInviteRequest) => ({ courier: courier(10, request.first_name, request.last_name, { password_set: false }), invite_token: "tok-new", invite_expires_at: "2026-12-04T12:00:00.000Z" }))), deactivate: vi.fn(overrides.deactivate ?? (async (id: number) => ({ ...DAY.couriers.find((c) => c.id === id)!, active: false }))), reinvite: vi.fn(overrides.reinvite ?? (async (id: number) => ({ courier: DAY.couriers.find((c) => c.id === id)!, invite_token: "tok-again", invite_expires_at: "2026-12-04T12:00:00.000Z" }))) };
  const load = vi.fn(overrides.load ?? (async () => DAY));
  // The event stream as the test drives it: stream.send is the machine's sendBack once the screen is open.
  const stream: { send?: (event: ConsoleCouriersEvent) => void } = {};
  const logic = consoleCouriersMachine.provide({
    actors: {
      loadCouriers: fromPromise(() => load()),
      eventStream: fromCallback<ConsoleCouriersEvent>(({ sendBack }) => {
        stream.send = sendBack;
      }),
      inviteCourier: fromPromise(async ({ input }: { input: { request: CourierInviteRequest; csrfToken: string | null } }) => {
        expect(input.csrfToken).toBe("csrf-1");
        return calls.invite(input.request);
      }),
      reinviteCourier: fromPromise(async ({ input }: { input: { courierId: number; csrfToken: string | null } }) => calls.reinvite(input.courierId)),
      deactivateCourier: fromPromise(async ({ input }: { input: { courierId: number; csrfToken: string | null } }) => calls.deactivate(input.courierId)),
    },
  });
  return { logic, calls: { ...calls, load }, stream };
}

describe("the Couriers screen (issue 27)", () => {
  it("lists every courier with their account and today's progress, reached from the 'Couriers' link", async () => {
    const { logic } = couriersLogic();
    const { user } = renderConsole("/dispatch", { couriersLogic: logic });
    await user.click(await screen.findByRole("link", { name: "Couriers" }));
    expect(await screen.findByRole("heading", { name: "Couriers", level: 1 })).toBeInTheDocument();
    const table = await screen.findByRole("table");
    const rows = within(table).getAllByRole("row").slice(1).map((row) => within(row).getAllByRole("cell").map((cell) => cell.textContent));
    expect(rows).toEqual([
      ["Active", "3", "1", "5", "Re-inviteDeactivate"],
      ["Invited, no password yet", "0", "0", "0", "Re-inviteDeactivate"],
      ["Deactivated", "0", "0", "0", ""],
    ]);
    expect(screen.getByRole("rowheader", { name: /Dana Whitfield/ })).toBeInTheDocument();
    // Phones for reading: a US number formatted, any other as given, none when there is none.
    expect(screen.getByRole("rowheader", { name: /Dana Whitfield/ })).toHaveTextContent("Dana Whitfielddana@example.com(215) 555-0142");
    expect(screen.getByRole("rowheader", { name: /Lee Park/ })).toHaveTextContent("Lee Parklee@example.com+44 20 7946 0958");
    expect(screen.getByRole("rowheader", { name: /Sam Okafor/ })).toHaveTextContent(/^Sam Okaforsam@example\.com$/);
    expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/couriers");
  });

  it("invites a courier and shows the set-password link; says each mistake by field first", async () => {
    const { logic, calls } = couriersLogic();
    const { user } = renderConsole("/dispatch/couriers", { couriersLogic: logic });
    await screen.findByRole("table");
    await user.type(screen.getByLabelText("First name"), "Ana");
    await user.type(screen.getByLabelText("Email"), "not-an-email");
    await user.click(screen.getByRole("button", { name: "Invite courier" }));
    expect(screen.getByLabelText("Email")).toHaveAccessibleDescription("Email must be an email address.");
    expect(screen.getByLabelText("Last name")).toHaveAttribute("aria-invalid", "true");
    expect(calls.invite).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText("Last name"), "Ruiz");
    await user.clear(screen.getByLabelText("Email"));
    await user.type(screen.getByLabelText("Email"), "ana@example.com");
    await user.click(screen.getByRole("button", { name: "Invite courier" }));
    expect(await screen.findByText(/Ana Ruiz is invited\./)).toBeInTheDocument();
    expect(calls.invite).toHaveBeenCalledWith({ first_name: "Ana", last_name: "Ruiz", email: "ana@example.com", phone_number: null });
    expect(screen.getByLabelText("Set-password link")).toHaveValue(`${window.location.origin}/set-password?token=tok-new`);
    expect(screen.getByRole("rowheader", { name: /Ana Ruiz/ })).toBeInTheDocument();
    expect(screen.getByLabelText("First name")).toHaveValue("");
  });

  it("says a refused invitation in the server's words and keeps the form", async () => {
    const taken: ApiFailure = { kind: "refused", status: 409, message: "A courier with the email dana@example.com already exists.", code: "conflict" };
    const { logic } = couriersLogic({ invite: async () => Promise.reject(taken) });
    const { user } = renderConsole("/dispatch/couriers", { couriersLogic: logic });
    await screen.findByRole("table");
    await user.type(screen.getByLabelText("First name"), "Dana");
    await user.type(screen.getByLabelText("Last name"), "Again");
    await user.type(screen.getByLabelText("Email"), "dana@example.com");
    await user.click(screen.getByRole("button", { name: "Invite courier" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("A courier with the email dana@example.com already exists.");
    expect(screen.getByLabelText("Email")).toHaveValue("dana@example.com");
  });

  it("deactivates only after a confirmation, and 'Cancel' changes nothing", async () => {
    const { logic, calls } = couriersLogic();
    const { user } = renderConsole("/dispatch/couriers", { couriersLogic: logic });
    await screen.findByRole("table");
    await user.click(screen.getByRole("button", { name: "Deactivate Dana Whitfield" }));
    const dialog = screen.getByRole("alertdialog", { name: "Deactivate Dana Whitfield?" });
    expect(within(dialog).getByRole("button", { name: "Deactivate" })).toHaveFocus();
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(screen.queryByRole("alertdialog")).not.toBeInTheDocument();
    expect(calls.deactivate).not.toHaveBeenCalled();

    await user.click(screen.getByRole("button", { name: "Deactivate Dana Whitfield" }));
    // Keyboard: the confirmation's first button has the focus; Enter confirms.
    await user.keyboard("{Enter}");
    expect(await screen.findByText("Dana Whitfield is deactivated: they can no longer log in, and their sessions have ended.")).toBeInTheDocument();
    expect(calls.deactivate).toHaveBeenCalledWith(7);
    const row = screen.getByRole("rowheader", { name: /Dana Whitfield/ }).closest("tr")!;
    expect(within(row).getByText("Deactivated")).toBeInTheDocument();
    expect(screen.queryByRole("button", { name: "Deactivate Dana Whitfield" })).not.toBeInTheDocument();
  });

  it("invites again after a confirmation, and says a failure in words", async () => {
    const offline: ApiFailure = { kind: "network", status: null, message: "Failed to fetch", code: null };
    let fail = true;
    const { logic } = couriersLogic({ reinvite: async (id) => (fail ? Promise.reject(offline) : { courier: SAM, invite_token: `tok-${id}`, invite_expires_at: "2026-12-04T12:00:00.000Z" }) });
    const { user } = renderConsole("/dispatch/couriers", { couriersLogic: logic });
    await screen.findByRole("table");
    await user.click(screen.getByRole("button", { name: "Re-invite Sam Okafor" }));
    await user.click(within(screen.getByRole("alertdialog", { name: "Re-invite Sam Okafor?" })).getByRole("button", { name: "Re-invite" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("The server cannot be reached, so the new invitation did not happen. Check the connection and try again.");
    fail = false;
    await user.click(screen.getByRole("button", { name: "Re-invite Sam Okafor" }));
    await user.click(within(screen.getByRole("alertdialog")).getByRole("button", { name: "Re-invite" }));
    await waitFor(() => expect(screen.getByLabelText("Set-password link")).toHaveValue(`${window.location.origin}/set-password?token=tok-8`));
  });

  it("is not a pharmacist's: no 'Couriers' in their navigation, and the address refuses in words", async () => {
    const { logic, calls } = couriersLogic();
    renderConsole("/dispatch/couriers", { session: PHARMACIST, couriersLogic: logic });
    expect(await screen.findByRole("alert")).toHaveTextContent("Couriers is for dispatchers of the courier company.");
    const nav = screen.getByRole("navigation", { name: "Console" });
    expect(within(nav).getAllByRole("link").map((link) => link.textContent)).toEqual(["Board", "Import orders", "Returns"]);
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    expect(calls.invite).not.toHaveBeenCalled();
  });

  it("is live: a courier's progress changes without a reload, and 'Reconnecting…' shows while the stream is down", async () => {
    let day = DAY;
    const { logic, calls, stream } = couriersLogic({ load: async () => day });
    renderConsole("/dispatch/couriers", { couriersLogic: logic });
    await screen.findByRole("table");
    const progressOf = (name: RegExp) => within(screen.getByRole("rowheader", { name }).closest("tr")!).getAllByRole("cell").slice(1, 4).map((cell) => cell.textContent);
    expect(progressOf(/Dana Whitfield/)).toEqual(["3", "1", "5"]);
    act(() => stream.send!({ type: "STREAM_OPEN" }));
    expect(screen.getByText("Live")).toBeInTheDocument();

    // Dana delivers one more, on her phone: the stream announces it and the progress is counted anew.
    day = { ...DAY, progress: { 7: { delivered: 4, attempted: 1, left: 4 } } };
    act(() => stream.send!({ type: "STREAM_EVENT" }));
    await waitFor(() => expect(progressOf(/Dana Whitfield/)).toEqual(["4", "1", "4"]));
    expect(calls.load).toHaveBeenCalledTimes(2);

    // The stream drops, and comes back: what was missed meanwhile is loaded.
    act(() => stream.send!({ type: "STREAM_ERROR" }));
    expect(screen.getByText("Reconnecting…")).toBeInTheDocument();
    day = { ...DAY, progress: { 7: { delivered: 5, attempted: 1, left: 3 } } };
    act(() => stream.send!({ type: "STREAM_OPEN" }));
    await waitFor(() => expect(progressOf(/Dana Whitfield/)).toEqual(["5", "1", "3"]));
    expect(screen.getByText("Live")).toBeInTheDocument();
  });

  it("hands a 401 to the session: the session ends and the login says so", async () => {
    const ended: ApiFailure = { kind: "unauthenticated", status: 401, message: "Log in to continue.", code: "unauthenticated" };
    const { logic } = couriersLogic({ load: async () => Promise.reject(ended) });
    renderConsole("/dispatch/couriers", { couriersLogic: logic });
    await waitFor(() => expect(screen.getByTestId("path")).toHaveTextContent("/dispatch/login"));
    expect(screen.getByRole("alert")).toHaveTextContent("Your session has ended. Please log in again.");
    expect(screen.getByRole("button", { name: "Log in" })).toBeInTheDocument();
  });
});
