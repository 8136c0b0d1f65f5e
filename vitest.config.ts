import { defineConfig } from "vitest/config";
import react from "@vitejs/plugin-react";

/**
 * Two groups, one after the other. First the unit, ui and api projects, two files at a time: on the two-core
 * machines CI runs on, Vitest's default (one worker fewer than the cores) ran every file alone, each core idle
 * half the time while the next file's worker started and imported (measured 2026-12-06: 578 s of a 1,699 s run
 * had no test running). Then the e2e project alone, one file at a time. Beside another file a test takes up to
 * twice as long, so the time-outs are a hang's limit, never a timing.
 */
const inParallelGroup = { maxWorkers: 2, sequence: { groupOrder: 0 } } as const;

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/unit/global-setup.ts"],
          testTimeout: 30_000,
          ...inParallelGroup,
        },
      },
      {
        extends: true,
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          // Migrates and seeds one database per engine; every test file gets a copy of it.
          globalSetup: ["tests/support/database-templates.ts"],
          // The hostile-input sweep took 18 s alone and 29 s beside another file.
          testTimeout: 90_000,
          hookTimeout: 120_000,
          ...inParallelGroup,
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
          ...inParallelGroup,
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
          // After the other projects: no test file shares the cores with the browser and its server.
          sequence: { groupOrder: inParallelGroup.sequence.groupOrder + 1 },
          globalSetup: ["tests/e2e/global-setup.ts"],
          // A real server and browser on two busy cores: give the UI time to settle.
          expect: { poll: { timeout: 15_000, interval: 100 } },
        },
      },
    ],
  },
});
