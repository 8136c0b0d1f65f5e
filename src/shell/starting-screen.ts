import { createContext } from "react";

/**
 * True for the screen a page starts with (a load or a reload straight to it),
 * false for a screen opened later, from a tap. The phone shows the page's
 * splash until the starting screen is rendered, so a flow's screen opened then
 * renders behind the splash, in slices (a transition), instead of in one task
 * in the commit that opens its flow; a screen opened from a tap renders in that
 * commit, so no splash shows between two screens (useFlowActor, issue 29).
 * The logged-in layout says which one is mounting (DayGate).
 */
export const StartingScreenContext = createContext(false);
