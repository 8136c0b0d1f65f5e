import { screen, within } from "@testing-library/react";
import { afterEach, beforeEach, vi } from "vitest";

/** What the UI tests (tests/ui) share: the page's network, and the rows a screen lists. */

/** The browser resolves the app's "/api/…" against the page; Node's Request (under jsdom) does not. */
export class PageRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === "string" ? new URL(input, window.location.href) : input, init);
  }
}

/**
 * For every test of the file (call it at the top level): `fetch` is a fresh
 * mock that answers only what the test tells it, and Request resolves against
 * the page; after each test the real ones are back.
 */
export function mockFetchPerTest() {
  const fetchMock = vi.fn<(request: Request) => Promise<Response>>();
  beforeEach(() => {
    fetchMock.mockReset();
    vi.stubGlobal("fetch", fetchMock);
    vi.stubGlobal("Request", PageRequest);
  });
  afterEach(() => vi.unstubAllGlobals());
  return fetchMock;
}

/** The names of the rows listed in a section (a region named by its heading), in order. */
export const rowNames = (section: string) =>
  within(screen.getByRole("region", { name: section }))
    .getAllByRole("listitem")
    .map((item) => item.querySelector(".row-link__name")!.textContent);
