import type { FastifySchemaCompiler } from "fastify";
import { safeParse, type $ZodType } from "zod/v4/core";
import { issueWords } from "../../domain/contract/issue-words.ts";

/** A request value's refusal as Fastify carries it (error.validation); errors.ts words it. */
export interface FieldIssue {
  instancePath: string;
  path: PropertyKey[];
  message: string;
  keyword: string;
}

/**
 * fastify-type-provider-zod's validator, with the product's words for zod's
 * own refusals (domain/contract/issue-words.ts) in place of zod's defaults.
 */
export const validatorCompiler: FastifySchemaCompiler<$ZodType> =
  ({ schema }) =>
  (data) => {
    const result = safeParse(schema, data, { error: issueWords });
    if (!result.error) return { value: result.data };
    const issues: FieldIssue[] = result.error.issues.map((issue) => ({
      instancePath: `/${issue.path.join("/")}`,
      path: issue.path,
      message: issue.message,
      keyword: issue.code,
    }));
    return { error: issues as unknown as Error };
  };
