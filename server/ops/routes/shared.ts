import { ErrorBody } from "../../../domain/contract/common.ts";

/** Every ops route states the refusals it can give and its Bearer security (the OpenAPI document). */
export const opsRefusals = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  429: ErrorBody,
} as const;

/** A key, or a dispatcher's or pharmacist's console session with its CSRF token (issue 27). */
export const opsSecurity: { [scheme: string]: string[] }[] = [{ opsKey: [] }, { staffSession: [], csrf: [] }];

/** Keys and staff accounts: a dispatch key only, never a console session. */
export const opsKeySecurity = [{ opsKey: [] }];

/** The console session itself (who is logged in, log out). */
export const staffSessionSecurity = [{ staffSession: [], csrf: [] }];

export const OPS_TAG = "operations";
