import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/App.tsx";
import { loadClientOnFirstInteraction } from "./api/client.ts";
import { prefetchItinerary } from "./api/sessions.ts";
import { installErrorReporting } from "./app/error-reporting.ts";
import { startFlow } from "./app/flows.ts";
import { createAppRouter } from "./app/router.tsx";
import { registerServiceWorkerWhenIdle } from "./offline/service-worker.ts";
import { createAppCourierAppMachineInSlices } from "./shell/app-actor.ts";
import { nextTask } from "./ui/next-task.ts";
import { keepPageSplashUntilScreen } from "./ui/page-splash.ts";
import "./styles/app.css";

installErrorReporting();
const root = document.getElementById("root")!;
keepPageSplashUntilScreen(root);
if (window.location.pathname !== "/login") prefetchItinerary();

/**
 * The app starts in slices, each a task of its own: the application's machines,
 * the router, then the first render. React renders that as a transition, in
 * slices too, and lets the phone breathe between them, instead of one long task
 * on a slow CPU (issue 29).
 */
async function start() {
  const app = await createAppCourierAppMachineInSlices({ startFlow, nextTask });
  await nextTask();
  const router = createAppRouter();
  await nextTask();
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App app={app} router={router} />
      </StrictMode>,
    );
  });
}

void start();
registerServiceWorkerWhenIdle();
loadClientOnFirstInteraction();
