import { createContext } from "react";

/**
 * Whether the screen opening now is the one the page starts with (a load or a
 * reload straight to it) rather than one opened later, from a tap. The phone
 * shows the page's splash until the starting screen is rendered, so a flow's
 * screen opened then renders behind the splash, in slices (a transition),
 * instead of in one task in the commit that opens its flow; a screen opened
 * from a tap renders in that commit, so no splash shows between two screens
 * (useFlowActor, issue 29). The logged-in layout answers (DayGate).
 *
 * A question, not a value: a screen asks once, when it opens, and the answer
 * turning once the starting screen is on the phone re-renders no screen.
 */
export type IsStartingScreen = () => boolean;

export const StartingScreenContext = createContext<IsStartingScreen>(() => false);
