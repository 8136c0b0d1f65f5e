import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { consoleBoardLogic } from "./api/board.ts";
import { consoleSessionLogic } from "./api/session.ts";
import { ConsoleApp } from "./ConsoleApp.tsx";
import "./console.css";

// The dispatch console (issue 27): its own page (dispatch.html) and code, never the courier app's.
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <BrowserRouter>
      <ConsoleApp logic={consoleSessionLogic} boardLogic={consoleBoardLogic} />
    </BrowserRouter>
  </StrictMode>,
);
