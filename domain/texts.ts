/**
 * The product's exact words (spec §2, §4, §5, §8). Views, machines and the
 * server's messages use these, never a paraphrase. {phone} is the support line.
 */
export const TEXT = {
  renderFailure: "Error occurred while accessing content. Please refresh or tap on the home button.",

  // Pharmacies (§2)
  pickupSection: "Select pharmacy to pickup orders",
  deliverSection: "Select pharmacy to deliver orders",
  returnSection: "Select pharmacy to return orders",
  completedSection: "Completed",
  incompleteOrdersReturnsAlert:
    "Incomplete orders must be successfully resubmitted by end of day. Click the try again button to resubmit.",

  // Check-in and verify (§2, §5)
  searchPlaceholder: "Search...",
  pickupInstructions: "Pickup Instructions",
  checkInHeading: "Tap check-in to pick up or cancel order(s)",
  orderNotListed: "I have an order not listed here",
  verifyOrderHeader: "verify order",
  dobNotAvailable: "Not available",
  otherFees: "Other fees",
  cancelOrderConfirm: "Are you sure you want to cancel this order?",
  startOrderDeliveries: "Start order deliveries",
  continue: "Continue",
  maxAddonCount: "Max addon count reached",

  // Delivery list and wizard (§2, §4, §5)
  allDeliveriesAttempted: "All deliveries have been attempted",
  emptyDeliveryList: "Check that you have verified all the orders you wish to deliver.",
  itemsToReturn: "Item(s) to return to pharmacy",
  routed: "Routed",
  notRouted: "Not Routed",
  routing: "Routing...",
  presentAtAddress: "I am present at the address above",
  addressIncorrect: "The address is incorrect",
  dobVerified: "Date of birth verified",
  dobNotVerified: "Did not verify date of birth",
  failedDeliveryTick: "Failed delivery - must be returned to pharmacy",
  failedDeliveryTickConfirm: "This order will be marked as a failed delivery attempt and will be returned to the pharmacy.",
  failedDeliveryConfirm:
    "This order will be marked as a failed delivery attempt and will be returned to the pharmacy. Are you sure?",
  minimumThreeCharacters: "(Minimum 3 characters)",
  maxThirtyTwoCharacters: "(Max 32 characters)",
  groupOrders: "Group Orders",
  unableToProvideId: "Unable to provide ID",
  unableToPaySkip:
    "This medication can still be delivered to the recipient. Please contact the provider at {phone} to notify us that the payment was not collected.",
  delivered: "The order has been delivered.",
  attempted: "Please return this order back to the pharmacy.",
  backToOrders: "Back to orders",
  signForItems: "sign for items",

  // Offline (§4)
  incompleteOrderBanner: "You have an incomplete order.",
  tryAgain: "Try again",

  // Error catalogue (§8)
  authorizationError: "There was an error authorizing the transaction. Please verify card information and try again.",
  serverError: "Something went wrong. Please try again.",
  noInternet:
    'Your device does not currently have internet access. Please select "try again" on the next page once you have internet access.',
  gatewayUnreachable:
    'Your device does not currently have internet access. Please select "try again" once you have internet access.',
  otherError: "Error: {message}. Please refresh and try again.",
  verifyServerError: "Error verifying order: {id}",
  verifyNoInternet: "No internet connection.  Please connect to the internet to continue",
  verifyMissingStatuses: "An error occurred. Please refresh and try again.",
  processorUnavailable: "Processor Network Unavailable. Please try again.",
  visitConfirmError:
    "There was a technical error upon submit, please contact {provider} by pressing the HELP button to confirm your availability",
  resubmitError: "There is a problem re-submitting orders",
} as const;

/** Fills {name} placeholders: fill(TEXT.verifyServerError, { id: 12 }). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

/** The company couriers call: shown in {provider} placeholders. */
export const PROVIDER_NAME = "Rx Courier support";

/** Spec §9: button clicks are debounced for 200 ms (a shaky thumb taps twice). */
export const BUTTON_DEBOUNCE_MS = 200;
