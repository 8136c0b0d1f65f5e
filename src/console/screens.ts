import { assign, type AnyActorLogic } from "xstate";
import type { consoleMachine } from "../../machines/console.machine.ts";
import type { ConsoleScreenMachines, ConsoleScreenName, ScreenOpen } from "../../machines/console-screens.ts";
import { consoleCouriersLogic } from "./api/couriers.ts";
import { consolePlanLogic } from "./api/plans.ts";

/**
 * The console's registry of screens (machines/console-screens.ts names them):
 * each screen's machine with the console's calls. The board's, the couriers'
 * and the plan's are in the first screen's JavaScript; the order page's, the
 * import's and the returns' load with their screens (loadScreen, before the
 * screen renders), so the CSV reader and the rest stay off the board's first
 * screen. The console machine starts them by name (startScreen, SCREEN.OPEN).
 */
export type ScreenLogic = Partial<ConsoleScreenMachines>;

type LazyScreen = "order" | "import" | "returns";

const LOADERS: { [S in LazyScreen]: () => Promise<ConsoleScreenMachines[S]> } = {
  order: () => import("./api/order.ts").then((module) => module.consoleOrderLogic),
  import: () => import("./api/import.ts").then((module) => module.consoleImportLogic),
  returns: () => import("./api/returns.ts").then((module) => module.consoleReturnsLogic),
};

const loaded: ScreenLogic = { couriers: consoleCouriersLogic, plan: consolePlanLogic };

/** Loads a screen's logic (once); its screen renders after this. */
export async function loadScreen<S extends LazyScreen>(screen: S): Promise<void> {
  loaded[screen] ??= (await LOADERS[screen]()) as ScreenLogic[S];
}

/**
 * The console machine with its startScreen: the named screen's machine — the
 * one given (the board's by the entry, any by a test) or the registry's — as
 * the console's child `id`, with its input.
 */
export function withScreens(app: typeof consoleMachine, given: ScreenLogic): typeof consoleMachine {
  const logicOf = (screen: ConsoleScreenName): AnyActorLogic => {
    const logic = given[screen] ?? loaded[screen];
    if (!logic) throw new Error(`The ${screen} screen's machine was started before its screen loaded it (loadScreen).`);
    return logic;
  };
  return app.provide({
    actions: {
      startScreen: assign(({ spawn }, open: ScreenOpen) => {
        // The console's children are typed by its own actors (the session): a screen's machine runs under the opening's id.
        const start = spawn as unknown as (logic: AnyActorLogic, options: { id: string; input: unknown }) => unknown;
        start(logicOf(open.screen), { id: open.id, input: open.input });
        return {};
      }),
    },
  });
}
