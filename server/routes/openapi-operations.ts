/**
 * Every operation's name in /api/openapi.json (issue 25): a stable camelCase
 * operationId (what a generated client calls the method), a short summary and
 * a tag, keyed by "METHOD path" as the document writes the path. Kept here,
 * not on each route, so one table says what a client generator sees; the
 * route's own longer `summary` becomes the operation's description.
 * tests/api/openapi-document.test.ts fails for a route missing here, and for
 * an entry no route has any more. An operationId never changes once published.
 */
export interface OperationName {
  operationId: string;
  summary: string;
  tag: OperationTag;
}

export const OPERATION_TAGS = {
  sessions: "The courier's login and session (cookie and CSRF token).",
  courier: "The courier's day: itinerary and routing.",
  pickup: "Verification, pickup, cancellation, add-ons and pharmacy visits.",
  deliveries: "Deliveries: failed attempts, recipients, completions.",
  payments: "Card payments at the door.",
  returns: "Returns of undelivered items, cash and checks to a pharmacy.",
  "client errors": "Error reports from the app.",
  service: "The service itself: health.",
  keys: "Operations API: API keys (dispatch only).",
  pharmacies: "Operations API: pharmacies (dispatch only).",
  couriers: "Operations API: couriers, invitations and deactivation (dispatch only).",
  orders: "Operations API: orders, one at a time or in batches.",
  assignments: "Operations API: orders on a courier's day (dispatch only).",
  plans: "Operations API: plan a day across couriers, then apply the plan (dispatch only).",
  proof: "Operations API: proof of delivery, custody and return manifests.",
  webhooks: "Operations API: webhook subscriptions and their deliveries.",
  events: "Operations API: the live stream of every change (Server-Sent Events), as the dispatch console reads it.",
  staff: "Operations API: dispatchers' and pharmacists' accounts (dispatch key only) and their console sessions (cookie and CSRF token).",
} as const;
export type OperationTag = keyof typeof OPERATION_TAGS;

const op = (operationId: string, tag: OperationTag, summary: string): OperationName => ({ operationId, summary, tag });

export const OPERATIONS: Record<string, OperationName> = {
  "POST /api/sessions": op("logIn", "sessions", "Log in"),
  "GET /api/sessions/current": op("getCurrentSession", "sessions", "The logged-in courier"),
  "DELETE /api/sessions/current": op("logOut", "sessions", "Log out"),
  "POST /api/courier/password": op("setCourierPassword", "sessions", "Set the invited courier's password"),
  "GET /api/courier/itinerary": op("getItinerary", "courier", "The courier's day"),
  "GET /api/routed_orders": op("getRoutedOrders", "courier", "Remaining deliveries in driving order"),
  "GET /api/courier/payments/client_token": op("getPaymentClientToken", "payments", "A client token for the card fields"),
  "POST /api/payments/sandbox/tokenize": op("tokenizeSandboxCard", "payments", "Tokenize a card (local sandbox only)"),
  "PUT /api/courier/orders/{id}/authorize": op("authorizeCardPayment", "payments", "Authorize an order's card payment"),
  "PUT /api/courier/orders/{id}": op("saveChargeData", "payments", "Save an order's charge data"),
  "POST /api/courier/deliveries": op("recordDelivery", "deliveries", "Record a delivery"),
  "PUT /api/orders/{id}": op("updateCourierOrder", "pickup", "Change an order's status or assert its copay"),
  "POST /api/orders/{id}/pickups": op("pickUpOrder", "pickup", "Pick up a verified order"),
  "POST /api/courier/cancellation": op("cancelAtVerification", "pickup", "Cancel an order at verification"),
  "GET /api/courier/pharmacies/{id}/addons": op("listAddOns", "pickup", "Add-on orders on offer at a pharmacy"),
  "POST /api/courier/pharmacies/{id}/addons": op("takeAddOns", "pickup", "Take add-on orders"),
  "PUT /api/couriers/{courierId}/pharmacy_visits/{visitId}/arrived_at_pharmacy": op("arriveAtPharmacy", "pickup", "Record the arrival at a pharmacy"),
  "POST /api/couriers/{courierId}/pharmacy_visits/confirm": op("confirmPharmacyVisits", "pickup", "Confirm or decline pharmacy visits"),
  "POST /api/courier/pharmacies/{id}/returns": op("returnToPharmacy", "returns", "Return items, cash and checks to a pharmacy"),
  "POST /api/client_errors": op("reportClientError", "client errors", "Report an error in the app"),
  "GET /api/health": op("getHealth", "service", "Whether the server is up, and its database engine"),

  "POST /api/ops/v1/keys": op("createApiKey", "keys", "Create an API key"),
  "GET /api/ops/v1/keys": op("listApiKeys", "keys", "List the API keys"),
  "DELETE /api/ops/v1/keys/{id}": op("revokeApiKey", "keys", "Revoke an API key"),
  "POST /api/ops/v1/pharmacies": op("createPharmacy", "pharmacies", "Add a pharmacy"),
  "GET /api/ops/v1/pharmacies": op("listPharmacies", "pharmacies", "List the pharmacies"),
  "PATCH /api/ops/v1/pharmacies/{id}": op("updatePharmacy", "pharmacies", "Change a pharmacy"),
  "POST /api/ops/v1/couriers": op("inviteCourier", "couriers", "Invite a courier"),
  "GET /api/ops/v1/couriers": op("listCouriers", "couriers", "List the couriers"),
  "POST /api/ops/v1/couriers/{id}/invitation": op("reinviteCourier", "couriers", "Invite a courier again"),
  "POST /api/ops/v1/couriers/{id}/deactivation": op("deactivateCourier", "couriers", "Deactivate a courier"),
  "PATCH /api/ops/v1/couriers/{id}": op("updateCourier", "couriers", "Set a courier's shift, capacity and start and end"),
  "POST /api/ops/v1/plans": op("createPlan", "plans", "Propose a plan for a day"),
  "GET /api/ops/v1/plans/{id}": op("getPlan", "plans", "Read a plan"),
  "POST /api/ops/v1/plans/{id}/application": op("applyPlan", "plans", "Apply a plan: assign its orders"),
  "POST /api/ops/v1/orders": op("createOrder", "orders", "Create an order"),
  "GET /api/ops/v1/orders": op("listOrders", "orders", "List orders, a page at a time"),
  "POST /api/ops/v1/orders/batch": op("createOrderBatch", "orders", "Create up to 1000 orders"),
  "PATCH /api/ops/v1/orders/{id}": op("updateOrder", "orders", "Change an order before pickup"),
  "GET /api/ops/v1/orders/{id}": op("getOrder", "orders", "One order with its status history"),
  "POST /api/ops/v1/orders/{id}/cancellation": op("cancelOrder", "orders", "Cancel an order before pickup"),
  "POST /api/ops/v1/assignments": op("assignOrders", "assignments", "Assign orders to a courier's day"),
  "DELETE /api/ops/v1/assignments/{order_id}": op("unassignOrder", "assignments", "Take an order off its courier's day"),
  "GET /api/ops/v1/orders/{id}/proof": op("getProof", "proof", "An order's proof of delivery"),
  "GET /api/ops/v1/orders/{id}/proof.pdf": op("getProofPdf", "proof", "An order's proof of delivery as a PDF"),
  "GET /api/ops/v1/orders/{id}/proof/signature.svg": op("getProofSignature", "proof", "The recipient's signature (SVG)"),
  "GET /api/ops/v1/orders/{id}/proof/photo": op("getProofPhoto", "proof", "The photo of the drop-off"),
  "GET /api/ops/v1/orders/{id}/custody": op("getCustody", "proof", "An order's chain of custody"),
  "GET /api/ops/v1/returns": op("listReturns", "proof", "A pharmacy's return manifests for a day"),
  "GET /api/ops/v1/returns/{id}.pdf": op("getReturnPdf", "proof", "A return manifest as a PDF"),
  "GET /api/ops/v1/returns/{id}/signature.svg": op("getReturnSignature", "proof", "The staff's signature on a return (SVG)"),
  "POST /api/ops/v1/webhooks": op("createWebhook", "webhooks", "Subscribe a URL to events"),
  "GET /api/ops/v1/webhooks": op("listWebhooks", "webhooks", "List the key's webhook subscriptions"),
  "DELETE /api/ops/v1/webhooks/{id}": op("deleteWebhook", "webhooks", "Unsubscribe"),
  "GET /api/ops/v1/webhooks/{id}/deliveries": op("listWebhookDeliveries", "webhooks", "A subscription's deliveries"),
  "GET /api/ops/v1/orders/{id}/webhook-deliveries": op("listOrderWebhookDeliveries", "webhooks", "The webhooks sent about an order"),
  "POST /api/ops/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver": op("redeliverWebhook", "webhooks", "Send a delivery again"),
  "POST /api/ops/v1/staff": op("inviteStaff", "staff", "Invite a dispatcher or a pharmacist"),
  "GET /api/ops/v1/staff": op("listStaff", "staff", "List the dispatchers and pharmacists"),
  "POST /api/ops/v1/staff/{id}/invitation": op("reinviteStaff", "staff", "Invite a staff member again"),
  "POST /api/ops/v1/staff/{id}/deactivation": op("deactivateStaff", "staff", "Deactivate a staff member"),
  "GET /api/ops/v1/events": op("streamEvents", "events", "The day's changes, live (Server-Sent Events)"),
  "POST /api/ops/v1/sessions": op("logInStaff", "staff", "Log in to the dispatch console"),
  "GET /api/ops/v1/sessions/current": op("getCurrentStaffSession", "staff", "The logged-in dispatcher or pharmacist"),
  "DELETE /api/ops/v1/sessions/current": op("logOutStaff", "staff", "Log out of the dispatch console"),
};

/** "GET", "/api/orders/:id" → "GET /api/orders/{id}": the key the table uses. */
export function operationKey(method: string, url: string): string {
  return `${method.toUpperCase()} ${url.replace(/:(\w+)/g, "{$1}")}`;
}
