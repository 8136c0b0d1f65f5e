import { act, render, screen } from "@testing-library/react";
import { useActorRef, useSelector } from "@xstate/react";
import { describe, expect, it } from "vitest";
import { MemoryRouter, useLocation, useNavigate, useNavigationType } from "react-router";
import { emit, setup } from "xstate";
import { useMachineUrl } from "../../../src/shell/use-machine-url.ts";

/**
 * The one URL mirror the delivery flow, the returns flow and check-in use
 * (src/shell/use-machine-url.ts), on a small machine: /flow/a, /flow/b and
 * /flow/c mirror its steps; c is reached only by NEXT from b (a URL asking for
 * it is refused); /elsewhere/… is no URL of the machine.
 */

type Step = "a" | "b" | "c";
const STEPS: Step[] = ["a", "b", "c"];

const machine = setup({
  types: {} as {
    events: { type: "NEXT" } | { type: "GO_TO"; step: Step } | { type: "FINISH" } | { type: "PING" };
    emitted: { type: "pinged"; id: number };
    output: { to: string };
  },
  guards: { mayGoTo: ({ event }, step: Step) => event.type === "GO_TO" && event.step === step },
  actions: { ping: emit({ type: "pinged" as const, id: 7 }) },
}).createMachine({
  initial: "a",
  on: {
    GO_TO: [
      { guard: { type: "mayGoTo", params: "a" }, target: ".a" },
      { guard: { type: "mayGoTo", params: "b" }, target: ".b" },
    ],
  },
  states: {
    a: { on: { NEXT: "b" } },
    b: { on: { NEXT: "c", PING: { actions: "ping" } } },
    c: { on: { FINISH: "done" } },
    done: { type: "final" },
  },
  output: () => ({ to: "/out" }),
});

const urls: string[] = [];

function Flow({ replaceWhenDone }: { replaceWhenDone: boolean }) {
  const actor = useActorRef(machine);
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const navigate = useNavigate();
  const step = useSelector(actor, (snapshot) => (snapshot.status === "done" ? "done" : String(snapshot.value)));
  urls.push(pathname);
  useMachineUrl(actor, {
    url: pathname.startsWith("/flow/") ? pathname : null,
    pathOf: (snapshot) => (snapshot.status === "done" ? null : `/flow/${String(snapshot.value)}`),
    eventFor: (url) => {
      const asked = STEPS.find((candidate) => url === `/flow/${candidate}`);
      return asked ? { type: "GO_TO" as const, step: asked } : null;
    },
    whenDone: { to: (snapshot) => snapshot.output!.to, replace: replaceWhenDone },
    onEmitted: { pinged: ({ id }) => `/elsewhere/${id}` },
  });
  return (
    <>
      <p data-testid="where">{`${pathname} ${navigationType} ${step}`}</p>
      {(["NEXT", "FINISH", "PING"] as const).map((type) => (
        <button key={type} onClick={() => actor.send({ type })}>
          {type}
        </button>
      ))}
      <button onClick={() => void navigate(-1)}>back</button>
      <button onClick={() => void navigate("/flow/a")}>link to a</button>
      <button onClick={() => void navigate("/flow/c")}>link to c</button>
    </>
  );
}

function open(path: string, replaceWhenDone = false) {
  urls.length = 0;
  render(
    <MemoryRouter initialEntries={["/start", path]} initialIndex={1}>
      <Flow replaceWhenDone={replaceWhenDone} />
    </MemoryRouter>,
  );
}

/** URL, how the router got there (PUSH, REPLACE, POP) and the machine's step. */
const where = () => screen.getByTestId("where").textContent;
const press = (name: string) => act(() => screen.getByRole("button", { name }).click());

describe("useMachineUrl: one mirror of a machine in the URL", () => {
  it("a step the machine takes by itself is pushed, so the back button asks the machine for the step before", async () => {
    open("/flow/a");
    expect(where()).toBe("/flow/a POP a");
    await press("NEXT");
    expect(where()).toBe("/flow/b PUSH b");
    await press("NEXT");
    expect(where()).toBe("/flow/c PUSH c");
    await press("back");
    expect(where()).toBe("/flow/b POP b");
    await press("back");
    expect(where()).toBe("/flow/a POP a");
  });

  it("a deep link the machine accepts stays as it is; one it refuses is replaced by the step it shows", async () => {
    open("/flow/b");
    expect(where()).toBe("/flow/b POP b");
    await press("link to c");
    expect(where()).toBe("/flow/b REPLACE b");
    // Replaced, not pushed: back goes to the URL before the refused one (pushed, it would be /flow/c again).
    await press("back");
    expect(where()).toBe("/flow/b POP b");
    await press("link to a");
    expect(where()).toBe("/flow/a PUSH a");
  });

  it("a refused deep link on opening is replaced at once, and the URL never shows a step the machine is not on afterwards", async () => {
    open("/flow/c");
    expect(where()).toBe("/flow/a REPLACE a");
    expect(urls.filter((url) => url === "/flow/c")).toHaveLength(1);
  });

  it("a URL that is none of the machine's is left alone, and the machine keeps its step", async () => {
    open("/flow/a");
    await press("NEXT");
    await press("PING");
    expect(where()).toBe("/elsewhere/7 PUSH b");
    // Back from a foreign URL to the machine's own: it is asked (and agrees, nothing moves).
    await press("back");
    expect(where()).toBe("/flow/b POP b");
  });

  it("done, the app leaves to the given path, pushed or replaced as the feature says", async () => {
    open("/flow/b");
    await press("NEXT");
    await press("FINISH");
    expect(where()).toBe("/out PUSH done");
  });

  it("done with replace: the flow's last URL is replaced", async () => {
    open("/flow/b", true);
    await press("NEXT");
    await press("FINISH");
    expect(where()).toBe("/out REPLACE done");
    await press("back");
    expect(where()).toBe("/flow/b POP done");
  });
});
