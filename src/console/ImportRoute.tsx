import { consoleImportLogic } from "./api/import.ts";
import { ImportScreen } from "./ImportScreen.tsx";

/** /dispatch/import, loaded on demand: the CSV reader and the import's rules stay off the board's first screen. */
export default function ImportRoute() {
  return <ImportScreen logic={consoleImportLogic} />;
}
