import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { readdirSync } from "node:fs";

/** The import direction of DEVELOPERS.md, enforced. */
const layer = (from, forbidden, message) => ({
  files: [`${from}/**/*.{ts,tsx}`],
  rules: {
    "no-restricted-imports": ["error", { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

/** The folders of src/features/ (each a screen family loaded on demand), read so a new one is covered too. */
const FEATURES = readdirSync(new URL("./src/features/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** What nothing in src/ imports; repeated in the rules below, since a later rule for the same files replaces an earlier one. */
const SRC_FORBIDDEN = ["**/server/**", "fastify*", "drizzle-orm*", "pg", "@electric-sql/*"];

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "data/", "coverage/", "docs/machines/*.viz.ts", "dev-dist/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["src/**/*.tsx", "src/**/*.ts"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  layer("domain", ["**/machines/**", "**/src/**", "**/server/**", "react", "react-*", "xstate", "fastify*", "drizzle-orm*", "ky"], "domain/ is framework-free vocabulary: it imports nothing of the other layers."),
  layer("machines", ["**/src/**", "**/server/**", "react", "react-*", "fastify*", "drizzle-orm*", "ky", "localforage"], "machines/ may import domain/ and xstate only: side effects are actors the app provides."),
  layer("src", SRC_FORBIDDEN, "src/ never imports the server."),
  layer("server", ["**/src/**", "react", "react-*"], "server/ never imports the web app."),
  // Inside src/: the shared pieces (ui, api) know nothing of the screens or the app around them,
  // so the HTTP layer cannot reach into an actor and no import circle can form.
  layer("src/ui", [...SRC_FORBIDDEN, "**/features/**", "**/app/**", "**/screens/**"], "src/ui/ is shared view pieces: it imports nothing of features/, app/ or screens/."),
  layer("src/api", [...SRC_FORBIDDEN, "**/features/**", "**/app/**", "**/screens/**", "**/ui/**", "xstate", "@xstate/*"], "src/api/ is plain HTTP: no features/, app/, screens/, ui/ or actor."),
  ...FEATURES.map((feature) =>
    layer(`src/features/${feature}`, [...SRC_FORBIDDEN, ...FEATURES.filter((other) => other !== feature).flatMap((other) => [`**/features/${other}/**`, `../${other}/**`])], "A feature never imports another feature: move what both need to src/ui/ or domain/."),
  ),
);
