import { elementScroll, useVirtualizer, type VirtualizerOptions, type Virtualizer } from "@tanstack/react-virtual";
import { createContext, memo, useCallback, useContext, useMemo, useRef, type KeyboardEvent, type MouseEvent } from "react";
import { canMoveOrder } from "../../domain/assignment-rules.ts";
import type { OpsOrder } from "../../domain/contract/ops.ts";
import { Link } from "react-router";
import { STATUS_WORDS } from "./status-words.ts";

/** Rows are one height, so the virtual list never measures. */
export const ROW_HEIGHT = 60;
/** A list longer than its region's height (24rem: six rows and a half) renders only the rows in view, and a few around them. */
export const VIRTUAL_FROM = 12;
const OVERSCAN = 4;
/** The list's height as console.css sets it (.console-region__scroll: 24rem): the rows to draw are known before anything is laid out. */
const LIST_HEIGHT = 384;

/**
 * The list's size as the browser reports it after a layout (a ResizeObserver),
 * never read at once: the virtual list's own reading (clientHeight, as each of
 * the board's 50 lists mounts) made the browser lay the whole board out in the
 * middle of React's commit. A size of nothing is a list not laid out yet (a
 * region off screen, content-visibility: auto): the size it had stands.
 */
function observeListRect(instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  const View = element?.ownerDocument.defaultView;
  if (!element || !View?.ResizeObserver) return undefined;
  const observer = new View.ResizeObserver(([entry]) => {
    const { width, height } = entry!.contentRect;
    if (height > 0) cb({ width: Math.round(width), height: Math.round(height) });
  });
  observer.observe(element);
  return () => observer.disconnect();
}

/**
 * Scrolls the list, except to the top of a list that is at the top: the
 * virtual list writes its offset as it mounts, and each such write made the
 * browser lay the board out there and then (50 lists, 50 writes).
 */
const scrollList: VirtualizerOptions<HTMLDivElement, Element>["scrollToFn"] = (offset, options, instance) => {
  if (offset === 0 && instance.scrollOffset === 0) return;
  elementScroll(offset, options, instance);
};

export interface RegionActions {
  /** A checkbox clicked; shift says a range from the last one, within this region's orders. */
  onToggle(orderId: number, shift: boolean, region: readonly OpsOrder[]): void;
  onUnassign(orderId: number): void;
}

/** What a row calls: the region's orders are the region's business, so a row does not change when another row does. */
interface RowActions {
  onToggle(orderId: number, shift: boolean): void;
  onUnassign(orderId: number): void;
}

/**
 * An assignment or unassignment is on its way ('Unassign' waits). A context,
 * read by the buttons alone: a change of it redraws no region and no row.
 */
export const BoardBusy = createContext(false);

interface RegionProps {
  title: string;
  orders: readonly OpsOrder[];
  empty: string;
  /** Checkboxes and 'Unassign' (a dispatcher's board; a pharmacist's shows the day only). */
  selectable: boolean;
  /** The selected orders of this region (the same set while they stay the same: the region is not drawn again). */
  selected: ReadonlySet<number>;
  actions: RegionActions;
}

const idOf = (title: string) => `region-${title.replace(/\W+/g, "-").toLowerCase()}`;

/**
 * A region of the board ('Unassigned', 'Courier {first} {last}'): its orders
 * in a list that scrolls on its own. A long list is virtual (only the rows in
 * view are in the page) yet stays a list to a screen reader (each row says
 * its place of how many: aria-posinset / aria-setsize) and to the keyboard
 * (the arrow keys, Home and End move between the rows' checkboxes, scrolling
 * the list to the row first).
 */
export const BoardRegion = memo(function BoardRegion({ title, orders, empty, selectable, selected, actions }: RegionProps) {
  const id = idOf(title);
  const scroller = useRef<HTMLDivElement>(null);
  // New only when this region's orders change (and then its rows are drawn again anyway).
  const rowActions = useMemo<RowActions>(() => ({ onToggle: (orderId, shift) => actions.onToggle(orderId, shift, orders), onUnassign: actions.onUnassign }), [actions, orders]);
  const virtual = orders.length >= VIRTUAL_FROM;
  // The component is memoized by hand (memo, its rows too); the compiler leaves it as it is.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: virtual ? orders.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: OVERSCAN,
    observeElementRect: observeListRect,
    scrollToFn: scrollList,
    // Before the list is laid out (and where nothing is, as in jsdom), the list's height in rows.
    initialRect: { width: 320, height: LIST_HEIGHT },
  });

  const focusRow = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(orders.length - 1, index));
      const focus = () => scroller.current?.querySelector<HTMLElement>(`[data-index="${target}"] input`)?.focus();
      // A row in the page (the next one usually is: a few are drawn beyond the view) takes the focus at once, and the browser scrolls it into view.
      if (scroller.current?.querySelector(`[data-index="${target}"] input`)) {
        focus();
      } else if (virtual) {
        virtualizer.scrollToIndex(target, { align: "auto" });
        // The row is in the page once the list has drawn the new range.
        requestAnimationFrame(() => requestAnimationFrame(focus));
      } else {
        focus();
      }
    },
    [orders.length, virtual, virtualizer],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const row = (event.target as HTMLElement).closest<HTMLElement>("[data-index]");
    if (!row || (event.target as HTMLElement).tagName !== "INPUT") return;
    const index = Number(row.dataset.index);
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, Home: 0, End: orders.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    focusRow(moves[event.key]!);
  };

  const rows = virtual
    ? virtualizer.getVirtualItems().map((item) => ({ index: item.index, top: item.start }))
    : orders.map((_, index) => ({ index, top: null as number | null }));

  return (
    <section className="console-region" aria-labelledby={id}>
      <h2 id={id}>
        {title} <span className="console-region__count">({orders.length})</span>
      </h2>
      {orders.length === 0 ? (
        <p className="console-empty">{empty}</p>
      ) : (
        <div
          ref={scroller}
          className="console-region__scroll"
          // A pharmacist's rows have nothing to focus: the list itself takes the keyboard's scrolling.
          tabIndex={selectable ? undefined : 0}
          role={selectable ? undefined : "group"}
          aria-labelledby={selectable ? undefined : id}
        >
          <ul
            className="console-orders"
            aria-labelledby={id}
            aria-describedby={selectable ? "board-keys-hint" : undefined}
            onKeyDown={selectable ? onKeyDown : undefined}
            style={virtual ? { height: virtualizer.getTotalSize(), position: "relative" } : undefined}
          >
            {rows.map(({ index, top }) => {
              const order = orders[index]!;
              return (
                <OrderRow
                  key={order.id}
                  order={order}
                  index={index}
                  setSize={orders.length}
                  top={top}
                  selectable={selectable}
                  selected={selected.has(order.id)}
                  actions={rowActions}
                />
              );
            })}
          </ul>
        </div>
      )}
    </section>
  );
});

interface RowProps {
  order: OpsOrder;
  index: number;
  setSize: number;
  top: number | null;
  selectable: boolean;
  selected: boolean;
  actions: RowActions;
}

const OrderRow = memo(function OrderRow({ order, index, setSize, top, selectable, selected, actions }: RowProps) {
  const patient = `${order.patient_first_name} ${order.patient_last_name}`;
  const reference = order.external_id ?? `#${order.id}`;
  const labelId = `order-${order.id}-name`;
  const onClick = (event: MouseEvent<HTMLInputElement>) => actions.onToggle(order.id, event.shiftKey);
  const canUnassign = selectable && order.courier_id !== null && canMoveOrder(order.status.name);
  return (
    <li
      className={`console-order${selectable ? "" : " console-order--plain"}${selected ? " console-order--selected" : ""}`}
      data-index={index}
      aria-posinset={index + 1}
      aria-setsize={setSize}
      style={top === null ? undefined : { position: "absolute", top, left: 0, right: 0, height: ROW_HEIGHT }}
    >
      {selectable && (
        // The checkbox's name is the patient and the pharmacy's reference: "Ada Lovelace RX-1".
        <input type="checkbox" className="console-order__check" aria-labelledby={labelId} checked={selected} onClick={onClick} onChange={noop} />
      )}
      <span id={labelId} className="console-order__who">
        <Link className="console-order__patient" to={`/dispatch/orders/${order.id}`}>
          {patient}
        </Link> <span className="console-order__ref">{reference}</span>
      </span>
      <span className="console-order__line">
        <span className={`console-status console-status--${order.status.name}`}>{STATUS_WORDS[order.status.name]}</span>{" "}
        <span className="console-order__meta">{order.pharmacy.name}</span>
      </span>
      {canUnassign && <UnassignButton orderId={order.id} labelId={labelId} actions={actions} />}
    </li>
  );
});

function UnassignButton({ orderId, labelId, actions }: { orderId: number; labelId: string; actions: RowActions }) {
  const busy = useContext(BoardBusy);
  return (
    <button
      type="button"
      className="console-button console-button--small console-button--quiet"
      aria-describedby={labelId}
      aria-disabled={busy || undefined}
      onClick={() => !busy && actions.onUnassign(orderId)}
    >
      Unassign
    </button>
  );
}

/** The checkbox is controlled by the board machine: the click is the event, the machine's selection its state. */
function noop() {}
