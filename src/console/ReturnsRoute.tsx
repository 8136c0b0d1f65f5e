import { ReturnsScreen } from "./ReturnsScreen.tsx";

/** /dispatch/returns, loaded on demand with its machine's logic (src/console/screens.ts): the manifests' screen and its contract stay off the board's first screen. */
export default function ReturnsRoute() {
  return <ReturnsScreen />;
}
