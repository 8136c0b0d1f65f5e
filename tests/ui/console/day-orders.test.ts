import { afterEach, describe, expect, it, vi } from "vitest";
import { dayOrders, nextCursorOf } from "../../../src/console/api/day-orders.ts";

/**
 * The board reads a day a page at a time; the next page is asked for as soon
 * as a page's Link header names it, before that page's body is read (the
 * board's first render waits for the last page).
 */

const order = (id: number) => ({ id });

function answer(body: unknown, link?: string): Response {
  return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", ...(link ? { link } : {}) } });
}

afterEach(() => vi.unstubAllGlobals());

describe("dayOrders", () => {
  it("asks for the next page from the Link header before the page's body is read", async () => {
    const asked: string[] = [];
    let firstBodyRead = false;
    const first = answer({ orders: [order(3), order(2)], next_cursor: "bzI" }, '</api/ops/v1/orders?service_date=2026-11-27&limit=1000&cursor=bzI>; rel="next"');
    const json = first.json.bind(first);
    first.json = async () => {
      // By the time this body is read, the second page has been asked for.
      expect(asked).toHaveLength(2);
      firstBodyRead = true;
      return json();
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        asked.push(url);
        return asked.length === 1 ? first : answer({ orders: [order(1)], next_cursor: null });
      }),
    );
    expect((await dayOrders("2026-11-27")).map((o) => o.id)).toEqual([3, 2, 1]);
    expect(firstBodyRead).toBe(true);
    expect(asked[0]).toContain("service_date=2026-11-27");
    expect(new URL(asked[1]!, "http://x").searchParams.get("cursor")).toBe("bzI");
  });

  it("follows next_cursor when an answer has no Link header", async () => {
    const asked: string[] = [];
    vi.stubGlobal(
      "fetch",
      vi.fn(async (url: string) => {
        asked.push(url);
        return asked.length === 1 ? answer({ orders: [order(2)], next_cursor: "bzI" }) : answer({ orders: [order(1)], next_cursor: null });
      }),
    );
    expect((await dayOrders("2026-11-27")).map((o) => o.id)).toEqual([2, 1]);
    expect(asked).toHaveLength(2);
  });

  it("reads the cursor of a rel=\"next\" link only", () => {
    expect(nextCursorOf('</api/ops/v1/orders?limit=1000&cursor=bzEyMw>; rel="next"')).toBe("bzEyMw");
    expect(nextCursorOf('</api/ops/v1/orders?cursor=x>; rel="prev"')).toBeNull();
    expect(nextCursorOf(null)).toBeNull();
  });
});
