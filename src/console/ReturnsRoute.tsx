import type { consoleReturnsMachine } from "../../machines/console-returns.machine.ts";
import { consoleReturnsLogic } from "./api/returns.ts";
import { ReturnsScreen } from "./ReturnsScreen.tsx";

/** /dispatch/returns, loaded on demand: the manifests' screen and its contract stay off the board's first screen. */
export default function ReturnsRoute({ logic = consoleReturnsLogic }: { logic?: typeof consoleReturnsMachine }) {
  return <ReturnsScreen logic={logic} />;
}
