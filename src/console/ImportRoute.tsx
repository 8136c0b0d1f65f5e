import { ImportScreen } from "./ImportScreen.tsx";

/** /dispatch/import, loaded on demand with its machine's logic (src/console/screens.ts): the CSV reader and the import's rules stay off the board's first screen. */
export default function ImportRoute() {
  return <ImportScreen />;
}
