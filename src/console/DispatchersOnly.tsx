import type { ReactNode } from "react";
import { ConsoleHeader } from "./ConsoleHeader.tsx";
import { ConsoleSession } from "./session-context.ts";

/** A screen for dispatchers only: a pharmacist who opens its address is told so in words (the server refuses their calls too). */
export function DispatchersOnly({ screen, children }: { screen: string; children: ReactNode }) {
  const role = ConsoleSession.useSelector((snapshot) => snapshot.context.staff?.role);
  if (role === "dispatcher") return children;
  return (
    <div className="console-shell">
      <ConsoleHeader />
      <main className="console-main">
        <h1>{screen}</h1>
        <p className="console-alert" role="alert">
          {screen} is for dispatchers of the courier company. A pharmacist sees their pharmacy's orders on the board.
        </p>
      </main>
    </div>
  );
}
