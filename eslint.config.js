import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/** The import direction of DEVELOPERS.md, enforced. */
const layer = (from, forbidden, message) => ({
  files: [`${from}/**/*.{ts,tsx}`],
  rules: {
    "no-restricted-imports": ["error", { patterns: forbidden.map((group) => ({ group: [group], message })) }],
  },
});

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
  layer("src", ["**/server/**", "fastify*", "drizzle-orm*", "pg", "@electric-sql/*"], "src/ never imports the server."),
  layer("server", ["**/src/**", "react", "react-*"], "server/ never imports the web app."),
);
