import { randomUUID } from "node:crypto";
import type { Page } from "playwright-core";
import pg from "pg";
import type { ItineraryResponse, Order } from "../../domain/contract/index.ts";
import { calendarDate } from "../../domain/dates.ts";
import { completionEntry } from "../../src/api/deliveries.ts";
import { browserOf, ensureBenchBrowser, launchBenchBrowser, type MeasuredIn } from "./lib/browser.ts";
import { apiCall, logIn } from "./lib/api.ts";
import { productionBuild } from "./lib/build.ts";
import { describeMachine, machineLine, round, today, type MachineDescription } from "./lib/machine.ts";
import { table } from "./lib/report.ts";
import { startBenchServer } from "./lib/server.ts";
import { completionFor, signatureSvg } from "./load/courier-day.ts";
import { prepareDatabase } from "./load/databases.ts";

/**
 * Offline drain (issue 9): 50 deliveries stored on the phone while it had
 * no network are sent when it reconnects. The real app in Chromium: the
 * courier logs in, 50 completions (each with its ~10 KB signature) are put
 * in the app's offline queue store exactly as the app stores them
 * (completionEntry of src/api/deliveries.ts, one IndexedDB record per
 * Idempotency-Key), the phone goes offline and the app is reloaded from
 * the service worker with the 50 waiting, then the network comes back.
 * Measured: from reconnecting to the queue store being empty; then the
 * database is asked whether each delivery arrived exactly once.
 */

export const STORED = 50;

export interface OfflineResult extends MeasuredIn {
  date: string;
  machine: MachineDescription;
  loadAverageEnd: number;
  stored: number;
  /** From context.setOffline(false) to the last delivery response. */
  lastResponseMs: number;
  /** From context.setOffline(false) to the queue store seen empty (polled every 50 ms). */
  emptyMs: number;
  deliveryRequests: number;
  statuses: Record<string, number>;
  rows: { deliveries: number; ordersWithOneDelivery: number; ordersWithMore: number; ordersWithNone: number; delivered: number };
  exactlyOnce: boolean;
  reloadedOffline: boolean;
}

async function queueCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open("rx-courier");
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains("offline-orders")) {
            db.close();
            resolve(-1);
            return;
          }
          const count = db.transaction("offline-orders", "readonly").objectStore("offline-orders").count();
          count.onsuccess = () => {
            db.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

export async function runOfflineDrain(options: { log?: (line: string) => void } = {}): Promise<OfflineResult> {
  // Before any server starts: a failed install then leaves nothing running.
  ensureBenchBrowser();
  const log = options.log ?? console.log;
  const machine = describeMachine();
  const serviceDate = calendarDate(new Date(), "America/New_York");
  // PostgreSQL, so the rows can be counted while the server runs; a small fleet is enough.
  const database = await prepareDatabase("postgres", serviceDate, { couriers: 5, pharmacies: 8, ordersToday: 750, historyDays: 0 });
  if (!("databaseUrl" in database.server)) throw new Error("expected PostgreSQL");
  const databaseUrl = database.server.databaseUrl;
  const server = await startBenchServer({ ...database.server, env: { WEB_ROOT: productionBuild(log) } });
  const { browser, name: browserName } = await launchBenchBrowser();
  try {
    // The courier's orders: pick up (through the API) enough that a patient can sign for, without a card.
    const email = database.dataset.emails[0]!;
    const courier = await logIn(server.url, email);
    const day = await apiCall<ItineraryResponse>(server.url, courier, "GET", "/api/courier/itinerary");
    const signature = signatureSvg();
    const chosen: Order[] = [];
    for (const order of day.orders) {
      if (chosen.length === STORED) break;
      if (!["submitted_to_courier", "verified", "picked_up"].includes(order.status.name)) continue;
      if (!completionFor(order, signature, new Date().toISOString())) continue;
      if (order.status.name !== "picked_up") {
        await apiCall(server.url, courier, "PUT", `/api/orders/${order.id}`, { order: { copay: order.copay ?? "0.00" } });
        chosen.push(await apiCall<Order>(server.url, courier, "POST", `/api/orders/${order.id}/pickups`, {}));
      } else {
        chosen.push(order);
      }
    }
    if (chosen.length < STORED) throw new Error(`only ${chosen.length} deliverable orders for ${email}`);

    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: "en-US",
      timezoneId: "America/New_York",
    });
    await context.addInitScript("globalThis.__name = (target) => target;");
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("deliver-safely");
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    await page.goto("/pharmacies");
    await page.waitForLoadState("networkidle");
    // The service worker must control the page for an offline reload.
    await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 30_000 }).catch(() => undefined);
    for (let i = 0; i < 100 && (await queueCount(page)) < 0; i++) await page.waitForTimeout(100);

    // The 50 stored deliveries, a minute apart, as the app would have queued them through a dead zone.
    const storedOn = calendarDate(new Date(), "America/New_York");
    const started = Date.now() - STORED * 60_000;
    const entries = chosen.map((order, i) => {
      const occurred = new Date(started + i * 60_000).toISOString();
      const entry = completionEntry(completionFor(order, signature, occurred)!, { idempotencyKey: randomUUID(), storedOn });
      return { ...entry, createdAt: occurred };
    });
    // Typed loosely for the page: the entries' JSON type is too deep for page.evaluate's.
    const records = JSON.parse(JSON.stringify(entries)) as { idempotencyKey: string }[];
    await page.evaluate(
      (entries: { idempotencyKey: string }[]) =>
        new Promise<void>((resolve, reject) => {
          const open = indexedDB.open("rx-courier");
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction("offline-orders", "readwrite");
            for (const entry of entries) tx.objectStore("offline-orders").put(entry, entry.idempotencyKey);
            tx.oncomplete = () => {
              db.close();
              resolve();
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      records,
    );

    // No network: the app reopens from the service worker with the 50 waiting.
    await context.setOffline(true);
    let reloadedOffline = true;
    try {
      await page.reload({ waitUntil: "load", timeout: 20_000 });
      await page.getByText("You have an incomplete order.").first().waitFor({ timeout: 20_000 });
    } catch {
      // Without a service worker in control the page cannot reload offline: reload online, then go offline.
      reloadedOffline = false;
      await context.setOffline(false);
      await page.reload({ waitUntil: "load" });
      await context.setOffline(true);
      await page.getByText("You have an incomplete order.").first().waitFor({ timeout: 20_000 });
    }
    if ((await queueCount(page)) !== STORED) throw new Error(`the queue holds ${await queueCount(page)} entries, not ${STORED}`);

    const statuses: Record<string, number> = {};
    let lastResponse = 0;
    let deliveryRequests = 0;
    page.on("response", (response) => {
      if (!response.url().endsWith("/api/courier/deliveries") || response.request().method() !== "POST") return;
      deliveryRequests++;
      statuses[response.status()] = (statuses[response.status()] ?? 0) + 1;
      lastResponse = performance.now();
    });
    log(`  ${STORED} deliveries stored; reconnecting…`);
    const reconnected = performance.now();
    await context.setOffline(false); // the app resubmits on the browser's "online" event
    let emptyAt = 0;
    for (const deadline = reconnected + 120_000; performance.now() < deadline; ) {
      if ((await queueCount(page)) === 0) {
        emptyAt = performance.now();
        break;
      }
      await page.waitForTimeout(50);
    }
    if (!emptyAt) throw new Error(`the queue still holds ${await queueCount(page)} entries after 120 s`);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const ids = chosen.map((order) => order.id);
    const perOrder = await client.query<{ order_id: number; n: string }>(
      "select o.id as order_id, count(d.delivery_id) as n from orders o left join delivery_orders d on d.order_id = o.id where o.id = any($1) group by o.id",
      [ids],
    );
    const deliveries = await client.query<{ n: string }>("select count(distinct delivery_id) as n from delivery_orders where order_id = any($1)", [ids]);
    const delivered = await client.query<{ n: string }>("select count(*) as n from orders where id = any($1) and status_id = (select id from order_statuses where name = 'delivered')", [ids]);
    await client.end();
    const counts = perOrder.rows.map((row) => Number(row.n));
    const rows = {
      deliveries: Number(deliveries.rows[0]!.n),
      ordersWithOneDelivery: counts.filter((n) => n === 1).length,
      ordersWithMore: counts.filter((n) => n > 1).length,
      ordersWithNone: ids.length - counts.filter((n) => n > 0).length,
      delivered: Number(delivered.rows[0]!.n),
    };
    return {
      date: today(),
      browser: browserName,
      machine,
      loadAverageEnd: describeMachine().loadAverage,
      stored: STORED,
      lastResponseMs: round(lastResponse - reconnected, 0),
      emptyMs: round(emptyAt - reconnected, 0),
      deliveryRequests,
      statuses,
      rows,
      exactlyOnce: rows.ordersWithOneDelivery === STORED && rows.deliveries === STORED && rows.delivered === STORED,
      reloadedOffline,
    };
  } finally {
    await browser.close();
    await server.stop();
    await database.drop();
  }
}

export function offlineMarkdown(result: OfflineResult): string {
  return [
    `Run ${result.date} on ${machineLine(result.machine)}; 1-minute load average ${result.machine.loadAverage} at the start, ${result.loadAverageEnd} at the end.`,
    `The real app (production build, ${browserOf(result)} at 390×844) logged in as a fleet courier on PostgreSQL. ${result.stored} delivery completions, each with a ~10 KB signature, were put in the app's offline queue exactly as the app stores them (\`completionEntry\` of src/api/deliveries.ts: one IndexedDB record per Idempotency-Key); the phone went offline and the app was reloaded ${result.reloadedOffline ? "from its service worker" : "(online: the service worker was not in control)"} with the ${result.stored} waiting; then the network came back (\`context.setOffline(false)\`: the app resubmits on the browser's online event, oldest first, one at a time under its Web Lock).`,
    "",
    table(
      ["Measure", "Result"],
      [
        ["Reconnect → queue store empty", `**${result.emptyMs} ms** (${round(result.emptyMs / result.stored, 1)} ms per delivery)`],
        ["Reconnect → last delivery answered", `${result.lastResponseMs} ms`],
        ["POST /api/courier/deliveries sent", `${result.deliveryRequests} (${Object.entries(result.statuses).map(([status, n]) => `${n} × ${status}`).join(", ")})`],
        ["Deliveries recorded for the 50 orders", String(result.rows.deliveries)],
        ["Orders with exactly one delivery / more / none", `${result.rows.ordersWithOneDelivery} / ${result.rows.ordersWithMore} / ${result.rows.ordersWithNone}`],
        ["Orders now delivered", String(result.rows.delivered)],
        ["Each arrived exactly once", result.exactlyOnce ? "**yes**" : "**no**"],
      ],
    ),
  ].join("\n");
}
