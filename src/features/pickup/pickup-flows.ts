import { fromPromise } from "xstate";
import { createAddonsMachine } from "../../../machines/addons.definition.ts";
import { createCheckInMachine } from "../../../machines/check-in.definition.ts";
import { createVerifyOrderMachine } from "../../../machines/verify-order.definition.ts";
import { assertCopay, cancelOrder, fetchAddons, markArrived, pickUpOrder, submitAddons } from "../../api/pickup.ts";
import { createLabelScannerMachine } from "../../../machines/label-scanner.definition.ts";
import { cameraActor } from "../../ui/scanner/camera-actor.ts";

/**
 * The pickup flows with the app's adapters: what the app's registry of flows (src/app/flows.ts) loads for these screens.
 * Each machine is built once with them (not defined, then built again by provide()), when its flow first starts:
 * a reload on check-in builds neither verify's nor add-ons'.
 */

export const appCheckInMachine = () =>
  createCheckInMachine({
    markArrived: fromPromise(({ input }) => markArrived(input.courierId, input.visitId)),
    labelScanner: createLabelScannerMachine({ camera: cameraActor }),
  });

export const appVerifyOrderMachine = () =>
  createVerifyOrderMachine({
    assertCopay: fromPromise(({ input }) => assertCopay(input.orderId, input.copay)),
    pickUpOrder: fromPromise(({ input }) => pickUpOrder(input.orderId)),
    cancelOrder: fromPromise(({ input }) => cancelOrder(input.orderId)),
  });

export const appAddonsMachine = () =>
  createAddonsMachine({
    fetchAddons: fromPromise(({ input }) => fetchAddons(input.pharmacyId)),
    submitAddons: fromPromise(({ input: { pharmacyId, ...request } }) => submitAddons(pharmacyId, request)),
  });
