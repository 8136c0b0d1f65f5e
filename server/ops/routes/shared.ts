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

export const opsSecurity = [{ opsKey: [] }];

export const OPS_TAG = "operations";
