import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
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

/** What nothing in server/ imports; repeated in the server's layer rules below, for the same reason as SRC_FORBIDDEN. */
const SERVER_FORBIDDEN = ["**/src/**", "react", "react-*"];

/**
 * The server's layers, lowest first (docs/architecture.md "The server's layers"): each may import
 * the layers below it and never one above. Import paths are relative, so a layer is named by the
 * folder segments only it has ("services/" also matches ops/services/, hence the order of the rules).
 */
const ABOVE_SERVICES = ["**/ops/**", "**/routes/**", "**/seed/**", "**/app.ts", "**/main.ts"];
const SERVER_LAYERS = [
  layer("server/db", [...SERVER_FORBIDDEN, "**/auth/**", "**/http/**", "**/payments/**", "**/config.ts", "**/services/**", ...ABOVE_SERVICES], "server/db/ is the bottom layer (the client, the schema, Tx, the audit trail): it imports nothing else of the server."),
  ...["server/auth", "server/http", "server/payments"].map((folder) =>
    layer(folder, [...SERVER_FORBIDDEN, "**/services/**", ...ABOVE_SERVICES], `${folder}/ is infrastructure under both APIs: it may import server/db/ and config, never services, routes or the ops API.`),
  ),
  { ...layer("server", [...SERVER_FORBIDDEN, "**/services/**", ...ABOVE_SERVICES], "server/config.ts is infrastructure: it never imports services, routes or the ops API."), files: ["server/config.ts"] },
  layer("server/services", [...SERVER_FORBIDDEN, ...ABOVE_SERVICES], "server/services/ serves both APIs: it never imports the ops API (server/ops/), routes, the seed or the app."),
  layer("server/routes", [...SERVER_FORBIDDEN, "**/ops/**", "**/seed/**", "**/app.ts", "**/main.ts"], "The courier's routes call server/services/; they never import the ops API, the seed or the app."),
  layer("server/ops/services", [...SERVER_FORBIDDEN, "**/routes/**", "**/auth.ts", "**/seed/**", "**/app.ts", "**/main.ts"], "server/ops/services/ may import server/services/ and below; never routes, the ops API's auth, the seed or the app."),
  ...["server/ops/routes/**/*.{ts,tsx}", "server/ops/auth.ts"].map((files) => ({
    ...layer("server/ops", [...SERVER_FORBIDDEN, "../../routes/**", "**/seed/**", "**/app.ts", "**/main.ts"], "The ops API's routes call server/ops/services/ and server/services/; never the courier's routes, the seed or the app."),
    files: [files],
  })),
  layer("server/seed", [...SERVER_FORBIDDEN, "**/routes/**", "**/app.ts", "**/main.ts"], "server/seed/ loads demo data through the services; it never imports routes or the app."),
];

/** The courier app's layers above src/api/ and above src/ui/ (lowest first: ui; offline, payments; api; shell; features; app). */
const COURIER_ABOVE_API = ["**/shell/**", "**/features/**", "**/app/**"];
const COURIER_ABOVE_UI = ["**/offline/**", "**/payments/**", "**/api/**", ...COURIER_ABOVE_API];
/** The folders of src/ that are the courier app's own, out of the dispatch console's reach (it shares src/ui/ only). */
const COURIER_ONLY = ["offline", "payments", "api", "shell", "features", "app"];

/** What nothing in src/ imports; repeated in the rules below, since a later rule for the same files replaces an earlier one. */
const SRC_FORBIDDEN = ["**/server/**", "fastify*", "drizzle-orm*", "pg", "@electric-sql/*"];

export default tseslint.config(
  { ignores: ["dist/", "node_modules/", "data/", "coverage/", "docs/machines/*.viz.ts", "dev-dist/"] },
  js.configs.recommended,
  // No two files import each other in a circle, anywhere (issue 26). Type-only imports are not
  // followed by the rule: tests/unit/import-cycles.test.ts checks those too.
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx", ".js", ".mjs"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
  },
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
  layer("server", SERVER_FORBIDDEN, "server/ never imports the web app."),
  ...SERVER_LAYERS,
  // Inside src/, the courier app's layers, lowest first (docs/architecture.md "What each folder of src/
  // may import"): ui; offline and payments; api; shell; features; app. Each imports only layers below
  // its own, so no import runs back up and no circle can form. The dispatch console (src/console/) is
  // an app of its own beside them: it shares the view pieces and nothing of the courier's app.
  layer("src/ui", [...SRC_FORBIDDEN, ...COURIER_ABOVE_UI, "**/console/**"], "src/ui/ is shared view pieces: it imports nothing else of src/."),
  ...["src/offline", "src/payments"].map((folder) =>
    layer(folder, [...SRC_FORBIDDEN, "**/api/**", ...COURIER_ABOVE_API, "**/console/**"], `${folder}/ is a device adapter: it may import src/ui/ helpers, never api/, shell/, features/, app/ or the console.`),
  ),
  layer("src/api", [...SRC_FORBIDDEN, "**/ui/**", ...COURIER_ABOVE_API, "**/console/**", "xstate", "@xstate/*"], "src/api/ is plain HTTP: it may import offline/ and payments/; no ui/, shell/, features/, app/, console or actor."),
  layer("src/shell", [...SRC_FORBIDDEN, "**/features/**", "**/app/**", "**/console/**"], "src/shell/ (the application actor and the hooks screens reach it by) sits below the features: it never imports features/, app/ or the console."),
  // The console's own folders may have any name, so its rule is on resolved paths, not import strings.
  {
    files: ["src/console/**/*.{ts,tsx}"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./src/console",
              from: COURIER_ONLY.map((folder) => `./src/${folder}`),
              message: "The dispatch console is an app of its own: it may import src/ui/, domain/ and machines/, never the courier's app, shell, features, HTTP client or device adapters.",
            },
          ],
        },
      ],
    },
  },
  { ...layer("src", [...SRC_FORBIDDEN, "**/console/**"], "The courier app's root never imports the dispatch console."), files: ["src/app/**/*.{ts,tsx}", "src/main.tsx"] },
  ...FEATURES.map((feature) =>
    layer(
      `src/features/${feature}`,
      [...SRC_FORBIDDEN, "**/app/**", "**/console/**", ...FEATURES.filter((other) => other !== feature).flatMap((other) => [`**/features/${other}/**`, `../${other}/**`])],
      "A feature imports src/shell/ and below, never the app's root (src/app/), the console or another feature: move what both need to src/shell/, src/ui/ or domain/.",
    ),
  ),
);
