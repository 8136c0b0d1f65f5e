import type { InputFrom } from "xstate";
import type { consoleBoardMachine } from "./console-board.machine.ts";
import type { consoleCouriersMachine } from "./console-couriers.machine.ts";
import type { consoleImportMachine } from "./console-import.machine.ts";
import type { consoleOrderMachine } from "./console-order.machine.ts";
import type { consolePlanMachine } from "./console-plan.machine.ts";
import type { consoleReturnsMachine } from "./console-returns.machine.ts";

/**
 * The screens' machines the console starts (machines/console.machine.ts), by
 * name, with the input each starts from. Types only: the order page's, the
 * import's and the returns' logic loads with their screens (the console's
 * registry, src/console/screens.ts), off the board's first screen.
 */
export interface ConsoleScreenMachines {
  board: typeof consoleBoardMachine;
  couriers: typeof consoleCouriersMachine;
  plan: typeof consolePlanMachine;
  order: typeof consoleOrderMachine;
  import: typeof consoleImportMachine;
  returns: typeof consoleReturnsMachine;
}

export type ConsoleScreenName = keyof ConsoleScreenMachines;

/** What opens one screen's machine: the screen's name, the id its machine runs under in the console, and its input. */
export type ScreenOpen = { [S in ConsoleScreenName]: { screen: S; id: string; input: InputFrom<ConsoleScreenMachines[S]> } }[ConsoleScreenName];
