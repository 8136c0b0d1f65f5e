import { assign } from "xstate";
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
  loaded[screen] ??= await LOADERS[screen]();
}

/**
 * The console machine with its startScreen: the named screen's machine — the
 * one given (the board's by the entry, any by a test) or the registry's — as
 * a child with its input, registered in the console's system under the
 * opening's id (how its screen finds it and the console stops it:
 * system.get(id)), as the courier app starts its flows (src/app/flows.ts).
 */
export function withScreens(app: typeof consoleMachine, given: ScreenLogic): typeof consoleMachine {
  function logicOf<S extends ConsoleScreenName>(screen: S): ConsoleScreenMachines[S] {
    const logic = given[screen] ?? loaded[screen];
    if (!logic) throw new Error(`The ${screen} screen's machine was started before its screen loaded it (loadScreen).`);
    return logic;
  }
  return app.provide({
    actions: {
      startScreen: assign(({ spawn }, open: ScreenOpen) => {
        // Each screen's logic by its name, so the input is typed by the machine it starts.
        const options = { systemId: open.id };
        switch (open.screen) {
          case "board":
            spawn(logicOf("board"), { ...options, input: open.input });
            break;
          case "couriers":
            spawn(logicOf("couriers"), { ...options, input: open.input });
            break;
          case "plan":
            spawn(logicOf("plan"), { ...options, input: open.input });
            break;
          case "order":
            spawn(logicOf("order"), { ...options, input: open.input });
            break;
          case "import":
            spawn(logicOf("import"), { ...options, input: open.input });
            break;
          case "returns":
            spawn(logicOf("returns"), { ...options, input: open.input });
            break;
        }
        return {};
      }),
    },
  });
}
