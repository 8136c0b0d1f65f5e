import { fromPromise } from "xstate";
import { CourierInviteResponse, CourierListResponse, CourierResponse, type CourierInviteRequest, type OpsCourier } from "../../../domain/contract/ops.ts";
import { courierProgress } from "../../../domain/courier-progress.ts";
import { consoleCouriersMachine, type ConsoleCouriersEvent, type CouriersData } from "../../../machines/console-couriers.machine.ts";
import { dayOrders } from "./day-orders.ts";
import { opsRequest } from "./http.ts";
import { liveEvents } from "./live-events.ts";

/** The Couriers screen's calls (machines/console-couriers.machine.ts). */
export const consoleCouriersActors = {
  loadCouriers: fromPromise<CouriersData, { serviceDate: string }>(async ({ input }) => {
    const [list, orders] = await Promise.all([opsRequest("GET", "couriers").then(async (response) => CourierListResponse.parse(await response.json())), dayOrders(input.serviceDate)]);
    return { couriers: list.couriers, progress: Object.fromEntries(courierProgress(orders)) };
  }),
  inviteCourier: fromPromise<CourierInviteResponse, { request: CourierInviteRequest; csrfToken: string | null }>(async ({ input }) =>
    CourierInviteResponse.parse(await (await opsRequest("POST", "couriers", { body: input.request, csrfToken: input.csrfToken })).json()),
  ),
  reinviteCourier: fromPromise<CourierInviteResponse, { courierId: number; csrfToken: string | null }>(async ({ input }) =>
    CourierInviteResponse.parse(await (await opsRequest("POST", `couriers/${input.courierId}/invitation`, { body: {}, csrfToken: input.csrfToken })).json()),
  ),
  deactivateCourier: fromPromise<OpsCourier, { courierId: number; csrfToken: string | null }>(async ({ input }) =>
    CourierResponse.parse(await (await opsRequest("POST", `couriers/${input.courierId}/deactivation`, { body: {}, csrfToken: input.csrfToken })).json()).courier,
  ),
  /** The day's event stream (./live-events.ts): any change of the day counts the progress anew. */
  eventStream: liveEvents<ConsoleCouriersEvent>(() => ({ type: "STREAM_EVENT" })),
};

export const consoleCouriersLogic = consoleCouriersMachine.provide({ actors: consoleCouriersActors });
