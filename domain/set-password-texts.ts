/**
 * The words of courier onboarding (`/set-password`; the login screen's "Forgot
 * password?" keeps its two lines in LoginScreen.tsx, so the first screen's
 * bundle carries none of these). Not in the spec (its login is email and password only): ours,
 * kept in one place for the machine, the screens and their tests.
 */
export const SET_PASSWORD_TEXT = {
  title: "Set your password",
  lead: "Choose the password you will log in with.",
  newPassword: "New password",
  confirmPassword: "Type it again",
  submit: "Set password",
  submitting: "Setting password…",
  mismatch: "The two passwords are not the same.",
  noInternet: "No internet connection. Please connect to the internet to set your password.",
  tooManyAttempts: "Too many attempts. Please wait a minute and try again.",
  somethingWrong: "Something went wrong. Please try again.",
  inviteUnusableTitle: "This link no longer works",
  inviteUnusable: "This invite link has expired or has already been used. Ask dispatch to send you a new invite.",
  forgotTitle: "Forgot your password?",
  forgot: "Ask dispatch to send you a new invite. Its link lets you set a new password.",
  doneTitle: "Password set",
  done: "Your password is set. Log in with your email and your new password.",
  goToLogin: "Log in",
  backToLogin: "Back to log in",
} as const;


/**
 * The rule of domain/password-rules.ts (passwordProblem), in words, under the
 * field. The length is passed in: the login screen shares this file and its
 * first-screen bundle need not carry the list of common passwords.
 */
export const passwordRuleText = (minLength: number) =>
  `At least ${minLength} characters, and not a common password. A few words you will remember work well.`;
