import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", globalSetup: ["tests/unit/global-setup.ts"] },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          // Migrates and seeds one database per engine; every test file gets a copy of it.
          globalSetup: ["tests/support/database-templates.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "ui",
          include: ["tests/ui/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["tests/support/ui-setup.ts"],
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // One browser and one server at a time: two cores, honest timings.
          fileParallelism: false,
          globalSetup: ["tests/e2e/global-setup.ts"],
          // A real server and browser on two busy cores: give the UI time to settle.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
