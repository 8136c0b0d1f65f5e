import { useEffect, useRef, type RefObject } from "react";
import type IMask from "imask";
import type { FactoryOpts } from "imask";

/** What the inputs need of an imask InputMask, whatever its options. */
export interface LazyMask {
  value: string;
  masked: { append(text: string, flags: { input: boolean }): unknown };
  updateControl(): void;
  updateCursor(position: number): void;
  on(event: "accept", handler: () => void): unknown;
  destroy(): void;
}

/** Fetches imask ahead of need (a later step's masked input then has it at hand without a round trip). */
export function preloadMask(): void {
  void import("imask").catch(() => undefined);
}

/**
 * An imask mask on an uncontrolled input, loaded on demand: imask (14 KB
 * gzip) is in neither the first screen's nor a wizard step's first paint.
 * Until it arrives the input takes raw text; then what is in the field (its
 * default value and anything typed meanwhile) is replayed as typing — setting
 * the mask's value instead would commit it, so "5" of a "5.75" being typed
 * would become "$5.00" — and the cursor stays after it. `onAccept` hears every
 * value the mask accepts, replay included.
 */
export function useLazyMask(
  input: RefObject<HTMLInputElement | null>,
  /** Holds the mask once it has loaded (null until then): the caller's own ref, which it may use. */
  mask: RefObject<LazyMask | null>,
  /** Given imask, for options that name its classes (IMask.MaskedRange). */
  options: FactoryOpts | ((imask: typeof IMask) => FactoryOpts),
  onAccept: (value: string) => void,
): void {
  const accept = useRef(onAccept);
  useEffect(() => {
    accept.current = onAccept;
  });
  // The options of the first render: the mask is made once.
  const firstOptions = useRef(options);

  useEffect(() => {
    let cancelled = false;
    void import("imask").then(({ default: imask }) => {
      const element = input.current;
      if (cancelled || !element) return;
      const typedEarly = element.value;
      element.value = "";
      const wanted = firstOptions.current;
      const created = imask(element, typeof wanted === "function" ? wanted(imask) : wanted) as unknown as LazyMask;
      created.on("accept", () => accept.current(created.value));
      mask.current = created;
      if (typedEarly) {
        created.masked.append(typedEarly, { input: true });
        created.updateControl();
        created.updateCursor(created.value.length);
      }
    });
    return () => {
      cancelled = true;
      mask.current?.destroy();
      mask.current = null;
    };
  }, [input, mask]);
}
