import { fromPromise } from "xstate";
import { addonsMachine } from "../../../machines/addons.machine.ts";
import { checkInMachine } from "../../../machines/check-in.machine.ts";
import { verifyOrderMachine } from "../../../machines/verify-order.machine.ts";
import { assertCopay, cancelOrder, fetchAddons, markArrived, pickUpOrder, submitAddons } from "../../api/pickup.ts";
import { labelScannerMachine } from "../../../machines/label-scanner.machine.ts";
import { cameraActor } from "../../ui/scanner/camera-actor.ts";

/** The pickup flows with the app's adapters: what the app's registry of flows (src/app/flows.ts) loads for these screens. */

export const appCheckInMachine = checkInMachine.provide({
  actors: { markArrived: fromPromise(({ input }) => markArrived(input.courierId, input.visitId)), labelScanner: labelScannerMachine.provide({ actors: { camera: cameraActor } }) },
});

export const appVerifyOrderMachine = verifyOrderMachine.provide({
  actors: {
    assertCopay: fromPromise(({ input }) => assertCopay(input.orderId, input.copay)),
    pickUpOrder: fromPromise(({ input }) => pickUpOrder(input.orderId)),
    cancelOrder: fromPromise(({ input }) => cancelOrder(input.orderId)),
  },
});

export const appAddonsMachine = addonsMachine.provide({
  actors: {
    fetchAddons: fromPromise(({ input }) => fetchAddons(input.pharmacyId)),
    submitAddons: fromPromise(({ input: { pharmacyId, ...request } }) => submitAddons(pharmacyId, request)),
  },
});
