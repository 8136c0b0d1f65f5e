import { describe, expect, it } from "vitest";
import { passwordProblem, PASSWORD_MIN_LENGTH } from "../../domain/password-rules.ts";

describe("passwordProblem", () => {
  it("refuses a password under 12 characters, counting characters as a person sees them", () => {
    expect(passwordProblem("elevenchars")).toBe(`The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
    expect(passwordProblem("ééééééééééé")).toMatch(/at least 12/);
    expect(passwordProblem("🚲🚲🚲🚲🚲🚲🚲🚲🚲🚲🚲")).toMatch(/at least 12/);
  });

  it.each(["Password2024!", "qwerty123456", "123456789012", "aaaaaaaaaaaa", "abcabcabcabc", "password1234", "!!Welcome!!2026", "deliver-safely", "abcdefghijklmn"])(
    "refuses the common password %s",
    (password) => expect(passwordProblem(password)).toMatch(/too common/),
  );

  it("refuses only spaces", () => expect(passwordProblem(" ".repeat(14))).toMatch(/only spaces/));

  it.each(["correct horse battery", "Tr0ub4dor&3x!", "blue-kettle-on-porch-7"])("accepts %s", (password) =>
    expect(passwordProblem(password)).toBeNull(),
  );
});
