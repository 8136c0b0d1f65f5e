import type { Page } from "playwright-core";
import { expect, it } from "vitest";
import { PASSWORD_MIN_LENGTH } from "../../domain/password-rules.ts";
import { passwordRuleText, SET_PASSWORD_TEXT as T } from "../../domain/set-password-texts.ts";
import { expectAccessible, expectTapTargets, phonePage, screenshot, runForFile } from "./support.ts";

/**
 * The /set-password screen and the login screen's "Forgot password?" in
 * Chromium at 390×844: the look, axe, tap targets, and the chunk loaded on
 * demand. POST /api/courier/password is answered by the test here (each
 * outcome on cue); tests/e2e/onboarding.test.ts goes through the real one.
 */

const run = runForFile();

async function answerSetPassword(page: Page, status: number, body?: object): Promise<string[]> {
  const sent: string[] = [];
  await page.route("**/api/courier/password", async (route) => {
    sent.push(route.request().postData() ?? "");
    await route.fulfill({ status, contentType: "application/json", body: body ? JSON.stringify(body) : "" });
  });
  return sent;
}

async function choose(page: Page, password: string): Promise<void> {
  await page.getByLabel(T.newPassword).fill(password);
  await page.getByLabel(T.confirmPassword).fill(password);
  await page.getByRole("button", { name: T.submit }).click();
}

it("the form with the rule in words, a refusal, then done and on to the login screen", async () => {
  const page = await phonePage(run.browser, run.server.url, { serviceWorkers: "block" });
  const asked: string[] = [];
  page.on("request", (request) => asked.push(new URL(request.url()).pathname));
  await page.goto("/set-password?token=tok_e2e-123");
  await expect.poll(() => page.getByRole("heading", { name: T.title }).isVisible()).toBe(true);
  // The screen's code came in a chunk of its own, not with the first screen.
  expect(asked.some((p) => /^\/assets\/SetPasswordRoute-.*\.js$/.test(p))).toBe(true);
  await expect.poll(() => page.getByText(passwordRuleText(PASSWORD_MIN_LENGTH)).isVisible()).toBe(true);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "set-password");

  await choose(page, "password1234");
  await expect.poll(() => page.getByRole("alert").textContent()).toBe("This password is too common. Choose one that is harder to guess.");
  await expectAccessible(page);
  await screenshot(page, "set-password-refused");

  const sent = await answerSetPassword(page, 204);
  await choose(page, "plum orchard at noon");
  await expect.poll(() => page.getByRole("status").textContent()).toBe(T.done);
  expect(sent.map((body) => JSON.parse(body))).toEqual([{ token: "tok_e2e-123", password: "plum orchard at noon" }]);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "set-password-done");
  await page.getByRole("link", { name: T.goToLogin }).click();
  await expect.poll(() => new URL(page.url()).pathname).toBe("/login");
});

it("an expired or used invite asks for a new one from dispatch", async () => {
  const page = await phonePage(run.browser, run.server.url, { serviceWorkers: "block" });
  await answerSetPassword(page, 400, { error: "invalid_token", message: "This invitation link is not valid any more. Ask dispatch for a new invite." });
  await page.goto("/set-password?token=tok_used");
  await choose(page, "plum orchard at noon");
  await expect.poll(() => page.getByRole("alert").textContent()).toBe(T.inviteUnusable);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "set-password-invite-unusable");
});

it("the login screen's 'Forgot password?' leads to: ask dispatch for a new invite", async () => {
  const page = await phonePage(run.browser, run.server.url, { serviceWorkers: "block" });
  await page.goto("/login");
  await expect.poll(() => page.getByRole("link", { name: "Forgot password?" }).isVisible()).toBe(true);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "login-forgot-password-link");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toBe(T.forgot);
  await expectAccessible(page);
  await expectTapTargets(page);
  await screenshot(page, "set-password-forgot");
});
