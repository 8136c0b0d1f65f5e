import { useSelector } from "@xstate/react";
import { useEffect, useMemo, useRef, useState } from "react";
import type { OpsOrder } from "../../domain/contract/ops.ts";
import { attentionFor, serviceClock } from "../../domain/needs-attention.ts";
import { boardOrders } from "../../machines/console-board.machine.ts";
import { groupBoard, keepUnchanged, rangeBetween, type BoardGroups } from "./board-groups.ts";
import { BoardBusy, BoardRegion, type RegionActions } from "./BoardRegion.tsx";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { MapRegion } from "./map/MapRegion.tsx";
import { NeedsAttention, type AttentionItem } from "./NeedsAttention.tsx";
import { serviceDayScreen, type ScreenActor } from "./ConsoleScreen.tsx";
import { ConsoleSession } from "./session-context.ts";
import { STATUS_ORDER, STATUS_WORDS } from "./status-words.ts";

/** 'Needs attention' is worked out again each minute: a pharmacy's closing hour comes without any event. */
const CLOCK_TICK_MS = 60_000;

function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const EMPTY_SELECTION: ReadonlySet<number> = new Set();

/**
 * /dispatch: the day board (issue 27). Counts by status, 'Needs attention',
 * 'Unassigned' and a region per courier (orders in driving order), kept live
 * by the event stream; a dispatcher selects orders (checkboxes, shift-click
 * for a range), chooses a 'Courier' and presses 'Assign', or 'Unassign' one.
 * The board machine, run by the console, holds the selection and the assignment on its way.
 */
export const BoardScreen = serviceDayScreen("board", DayBoard);

function DayBoard({ actor: board }: { actor: ScreenActor<"board"> }) {
  const timeZone = ConsoleSession.useSelector((snapshot) => snapshot.context.serviceTimeZone);
  const dispatcher = ConsoleSession.useSelector((snapshot) => snapshot.context.staff?.role === "dispatcher");
  const serviceDate = useSelector(board, (snapshot) => snapshot.context.serviceDate);
  const loaded = useSelector(board, (snapshot) => snapshot.context.orders);
  const pending = useSelector(board, (snapshot) => snapshot.context.pending);
  const couriers = useSelector(board, (snapshot) => snapshot.context.couriers);
  const selectedIds = useSelector(board, (snapshot) => snapshot.context.selected);
  const courierId = useSelector(board, (snapshot) => snapshot.context.courierId);
  const notice = useSelector(board, (snapshot) => snapshot.context.notice);
  const error = useSelector(board, (snapshot) => snapshot.context.error);
  const data = useSelector(board, (snapshot) => snapshot.value.data);
  const connection = useSelector(board, (snapshot) => snapshot.value.connection);
  const busy = useSelector(board, (snapshot) => snapshot.value.assignment !== "idle");
  const now = useNow();

  const orders = useMemo(() => boardOrders(loaded, pending), [loaded, pending]);
  // Regions whose orders did not change keep their arrays (and are not drawn again): React's "state from the previous render" pattern.
  const [grouped, setGrouped] = useState<{ from: OpsOrder[]; groups: BoardGroups }>(() => ({ from: orders, groups: groupBoard(orders) }));
  if (grouped.from !== orders) setGrouped({ from: orders, groups: keepUnchanged(grouped.groups, groupBoard(orders)) });
  // (A render that set it is run again at once with the new groups; its output is never shown.)
  const { unassigned, couriers: courierGroups, counts } = grouped.groups;
  const selectedIn = useRegionSelection(selectedIds);
  const attention = useMemo(() => attentionItems(orders, timeZone, now), [orders, timeZone, now]);

  // Stable, so a region whose orders did not change is not drawn again.
  const actions = useMemo<RegionActions>(
    () => ({
      onToggle(orderId, shift, region) {
        const anchor = board.getSnapshot().context.anchor;
        const range = shift && anchor !== null && anchor !== orderId ? rangeBetween(region, anchor, orderId) : null;
        board.send(range ? { type: "SELECT_RANGE", orderIds: range } : { type: "TOGGLE_ORDER", orderId });
      },
      onUnassign(orderId) {
        board.send({ type: "UNASSIGN", orderId });
      },
    }),
    [board],
  );

  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main console-board">
        <div className="console-board__top">
          <h1>Day board</h1>
          <label className="console-field console-field--inline">
            <span>Service date</span>
            <input type="date" value={serviceDate} onChange={(event) => board.send({ type: "SET_SERVICE_DATE", serviceDate: event.target.value })} />
          </label>
          <p className={`console-connection console-connection--${connection}`} role="status">
            {connection === "live" ? "Live" : connection === "reconnecting" ? "Reconnecting…" : "Connecting…"}
          </p>
        </div>

        {error && (
          <div className="console-alert console-alert--row" role="alert">
            <span>{error}</span>
            {data === "failed" && (
              <button type="button" className="console-button" onClick={() => board.send({ type: "RETRY" })}>
                Try again
              </button>
            )}
          </div>
        )}

        {dispatcher && (
          <section className="console-assign" aria-label="Assign orders">
            <p className="console-assign__count">
              <span className="console-count">{selectedIds.length}</span> selected
            </p>
            <label className="console-field console-field--inline">
              <span>Courier</span>
              <select
                value={courierId ?? ""}
                onChange={(event) => board.send({ type: "CHOOSE_COURIER", courierId: event.target.value ? Number(event.target.value) : null })}
              >
                <option value="">Choose a courier</option>
                {couriers.map((courier) => (
                  <option key={courier.id} value={courier.id}>
                    {courier.first_name} {courier.last_name}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" className="console-button" aria-disabled={busy || undefined} onClick={() => !busy && board.send({ type: "ASSIGN" })}>
              Assign
            </button>
            <button
              type="button"
              className="console-button console-button--quiet"
              aria-disabled={selectedIds.length === 0 || undefined}
              onClick={() => board.send({ type: "CLEAR_SELECTION" })}
            >
              Clear selection
            </button>
            <p className="console-assign__status" role="status">
              {busy ? "Saving…" : notice?.tone === "done" ? notice.text : ""}
            </p>
            <p id="board-keys-hint" className="console-visually-hidden">
              Space checks an order; Shift and a click checks every order from the last one checked. The arrow keys, Home and End move between orders.
            </p>
          </section>
        )}
        {notice?.tone === "refused" && (
          <div className="console-alert console-alert--row" role="alert">
            <span>{notice.text}</span>
            <button type="button" className="console-button console-button--quiet" onClick={() => board.send({ type: "DISMISS_NOTICE" })}>
              Dismiss
            </button>
          </div>
        )}

        {data === "loading" ? (
          <p role="status">Loading the day…</p>
        ) : (
          <>
            <section aria-label="Counts by status" className="console-counts">
              <ul>
                <li>
                  <span className="console-count">{orders.length}</span> Orders
                </li>
                {STATUS_ORDER.filter((status) => counts.has(status)).map((status) => (
                  <li key={status}>
                    <span className="console-count">{counts.get(status)}</span> {STATUS_WORDS[status]}
                  </li>
                ))}
              </ul>
            </section>
            <NeedsAttention items={attention} />
            <div className="console-columns">
              <BoardBusy.Provider value={busy}>
              <BoardRegion
                title="Unassigned"
                orders={unassigned}
                empty="Every order of the day has a courier."
                selectable={dispatcher}
                selected={selectedIn("unassigned", unassigned)}
                actions={actions}
              />
              {courierGroups.map((group) => (
                <BoardRegion
                  key={group.courierId}
                  title={group.title}
                  orders={group.orders}
                  empty="No orders."
                  selectable={dispatcher}
                  selected={selectedIn(`courier-${group.courierId}`, group.orders)}
                  actions={actions}
                />
              ))}
              </BoardBusy.Provider>
            </div>
            <MapRegion orders={orders} couriers={couriers} />
          </>
        )}
      </main>
    </div>
  );
}

/**
 * Each region's selected orders, as the same set while they stay the same:
 * checking an order redraws its region only, and an assignment the regions
 * it changes (not the 50 others).
 */
function useRegionSelection(selectedIds: readonly number[]): (region: string, orders: readonly OpsOrder[]) => ReadonlySet<number> {
  const previous = useRef(new Map<string, ReadonlySet<number>>());
  const selected = useMemo(() => new Set(selectedIds), [selectedIds]);
  return (region, orders) => {
    const ids = selected.size ? orders.filter((order) => selected.has(order.id)).map((order) => order.id) : [];
    const before = previous.current.get(region) ?? EMPTY_SELECTION;
    if (ids.length === before.size && ids.every((id) => before.has(id))) return before;
    const next = ids.length ? new Set(ids) : EMPTY_SELECTION;
    previous.current.set(region, next);
    return next;
  };
}

/** Every order's reasons for attention now (domain/needs-attention.ts), in the order the orders were loaded. */
function attentionItems(orders: readonly OpsOrder[], timeZone: string | null, now: Date): AttentionItem[] {
  const clock = serviceClock(now, timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const items: AttentionItem[] = [];
  for (const order of orders) for (const attention of attentionFor(order, clock)) items.push({ order, attention });
  return items;
}
