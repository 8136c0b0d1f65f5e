import { fromPromise } from "xstate";
import { isApiFailure } from "../../../domain/api-failure.ts";
import { StaffSessionResponse } from "../../../domain/contract/staff.ts";
import { consoleSessionMachine } from "../../../machines/console-session.machine.ts";
import { opsRequest } from "./http.ts";

/** The console session machine's three calls (machines/console-session.machine.ts). */
export const consoleSessionActors = {
  fetchCurrentStaffSession: fromPromise<StaffSessionResponse | null>(async () => {
    try {
      return StaffSessionResponse.parse(await (await opsRequest("GET", "sessions/current")).json());
    } catch (error) {
      // 401: no session (or it ended): the login screen.
      if (isApiFailure(error) && error.status === 401) return null;
      throw error;
    }
  }),
  logInStaff: fromPromise<StaffSessionResponse, { email: string; password: string }>(async ({ input }) =>
    StaffSessionResponse.parse(await (await opsRequest("POST", "sessions", { body: input })).json()),
  ),
  logOutStaff: fromPromise<void, { csrfToken: string | null }>(async ({ input }) => {
    await opsRequest("DELETE", "sessions/current", { csrfToken: input.csrfToken });
  }),
};

export const consoleSessionLogic = consoleSessionMachine.provide({ actors: consoleSessionActors });
