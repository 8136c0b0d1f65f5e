import type { ApiFailure } from "./api-failure.ts";
import { SET_PASSWORD_TEXT } from "./set-password-texts.ts";

/** Courier onboarding's rules (`/set-password`): the invite token's form and the refusals in words. */

/** The server refuses an invite token it does not know, already used or expired: 400 invalid_token (server/services/onboarding.ts). */
export function inviteUnusable(failure: ApiFailure): boolean {
  return failure.kind === "refused" && failure.status === 400 && failure.code === "invalid_token";
}

/**
 * A token as the invitation link carries it: SetPasswordRequest.token's form
 * (domain/contract/onboarding.ts; a test keeps the two in step). Not the zod
 * schema itself: that would bring zod into this screen's chunk for one regex.
 */
export const INVITE_TOKEN_FORM = /^[A-Za-z0-9_-]{1,200}$/;
export const wellFormedToken = (token: string) => INVITE_TOKEN_FORM.test(token);

export const refusalMessage = (failure: ApiFailure) =>
  failure.kind === "refused" && failure.status === 400 && failure.message
    ? failure.message
    : failure.status === 429
      ? failure.message || SET_PASSWORD_TEXT.tooManyAttempts
      : failure.kind === "network" || failure.kind === "unavailable"
        ? SET_PASSWORD_TEXT.noInternet
        : SET_PASSWORD_TEXT.somethingWrong;

