/**
 * What a machine's test file gets for "vitest" when the docs generator loads
 * it (see probe-hooks.ts): describe bodies run, so the model's paths are
 * built exactly as the test builds them; tests are collected, never run.
 * Only what a test does while it is being collected needs to work here:
 * describe blocks, fake Date (the paths of a flow may carry "now"), vi.fn.
 */

type Body = (...args: unknown[]) => unknown;

const RealDate = globalThis.Date;
let fixedNow: number | null = null;

class StandInDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0 && fixedNow !== null) super(fixedNow);
    else super(...(args as [string | number | Date]));
  }

  static override now(): number {
    return fixedNow ?? RealDate.now();
  }
}

function setNow(value: unknown): void {
  fixedNow = value instanceof RealDate ? value.getTime() : typeof value === "number" || typeof value === "string" ? new RealDate(value).getTime() : RealDate.now();
  globalThis.Date = StandInDate as DateConstructor;
}

/** A chainable no-op: any property, any call, returns itself. */
function noop(): unknown {
  const target = function () {} as unknown as object;
  const proxy: unknown = new Proxy(target, { get: (_, key) => (key === "then" ? undefined : proxy), apply: () => proxy });
  return proxy;
}

function suiteFunction(run: boolean): unknown {
  const describe = (name: unknown, second?: unknown, third?: unknown) => {
    const body = (typeof second === "function" ? second : third) as Body | undefined;
    if (run && body) body();
  };
  const each =
    (table: unknown[]) =>
    (name: unknown, second?: unknown, third?: unknown): void => {
      const body = (typeof second === "function" ? second : third) as Body | undefined;
      if (!run || !body) return;
      for (const row of table) {
        if (Array.isArray(row)) body(...row);
        else body(row);
      }
    };
  return new Proxy(describe, {
    get: (_, key) => {
      if (key === "each" || key === "for") return each;
      if (key === "skip" || key === "todo") return suiteFunction(false);
      if (key === "skipIf") return (condition: unknown) => suiteFunction(run && !condition);
      if (key === "runIf") return (condition: unknown) => suiteFunction(run && Boolean(condition));
      return suiteFunction(run);
    },
  });
}

function testFunction(): unknown {
  const test = () => {};
  return new Proxy(test, {
    get: (_, key) => {
      if (key === "each" || key === "for") return () => () => {};
      if (key === "skipIf" || key === "runIf") return () => testFunction();
      return testFunction();
    },
  });
}

export const describe = suiteFunction(true);
export const suite = describe;
export const it = testFunction();
export const test = it;
export const bench = it;
export const expect = noop();
export const expectTypeOf = noop();
export const assert = noop();
export const assertType = () => {};
export const beforeAll = () => {};
export const beforeEach = () => {};
export const afterAll = () => {};
export const afterEach = () => {};
export const onTestFailed = () => {};
export const onTestFinished = () => {};

const fn = (implementation?: Body) => {
  const mock = (...args: unknown[]) => implementation?.(...args);
  return Object.assign(mock, { mockReturnValue: () => mock, mockResolvedValue: () => mock, mockImplementation: () => mock });
};

export const vi = new Proxy(
  {
    useFakeTimers: (options?: { now?: unknown; toFake?: string[] }) => {
      if (!options?.toFake || options.toFake.includes("Date")) setNow(options?.now);
    },
    setSystemTime: (now: unknown) => setNow(now),
    useRealTimers: () => {
      fixedNow = null;
      globalThis.Date = RealDate;
    },
    fn,
    spyOn: () => fn(),
    hoisted: (factory: Body) => factory(),
  } as Record<string, unknown>,
  { get: (target, key) => (typeof key === "string" && key in target ? target[key] : noop()) },
);
export const vitest = vi;
