import type { ActorRefFrom } from "xstate";
import type { returnsMachine } from "../../../machines/returns.machine.ts";

/** The returns flow's actor, as the route and its screens hold it (its own file: the screens and the route never import each other both ways). */
export type ReturnsActor = ActorRefFrom<typeof returnsMachine>;
