import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { loadClientOnFirstInteraction } from "./api/client.ts";
import { prefetchItinerary } from "./api/sessions.ts";
import { installErrorReporting } from "./app/error-reporting.ts";
import { registerServiceWorkerWhenIdle } from "./offline/service-worker.ts";
import "./styles/app.css";

installErrorReporting();
if (window.location.pathname !== "/login") prefetchItinerary();

// A transition: React renders the first screen in slices and lets the phone
// breathe between them, instead of one long task on a slow CPU.
startTransition(() => {
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});

registerServiceWorkerWhenIdle();
loadClientOnFirstInteraction();
