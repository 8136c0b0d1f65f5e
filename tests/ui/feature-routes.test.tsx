import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { FEATURE_ROUTES } from "../../src/app/feature-routes.ts";
import { routes } from "../../src/app/router.tsx";

/** A concrete path for a pattern: every parameter a number, a splat a step. */
const example = (pattern: string) => pattern.replace(/:\w+/g, "7").replace(/\*$/, "address");

describe("feature-routes.ts, as the build reads it, agrees with the router", () => {
  for (const { feature, module, paths } of FEATURE_ROUTES) {
    for (const pattern of paths) {
      it(`${example(pattern)} loads ${feature} from ${module}`, async () => {
        const matches = matchRoutes(routes, example(pattern)) ?? [];
        const lazy = matches.map((match) => match.route.lazy).find((load) => typeof load === "function");
        expect(lazy, `no lazily loaded route matches ${pattern}`).toBeDefined();
        expect(await (lazy as () => Promise<unknown>)()).toBe(await import(`../../${module}`));
      });
    }
  }
});
