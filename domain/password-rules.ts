/**
 * The courier's password rule (issue 15): at least 12 characters and not one
 * of the passwords every attacker tries first. One function, used by the
 * server (POST /api/courier/password) and by the /set-password screen, so the
 * courier reads the same reason in both places.
 */

export const PASSWORD_MIN_LENGTH = 12;
/** Long enough for any passphrase; argon2 is not handed megabytes. */
export const PASSWORD_MAX_LENGTH = 200;

/**
 * Words that make a password common when they are all there is to it, give or
 * take digits and punctuation around them ("Password2024!", "qwerty123456").
 * The first entries of every published list of leaked passwords.
 */
const COMMON_WORDS = [
  "password", "passw0rd", "p@ssword", "p@ssw0rd", "qwerty", "qwertyuiop", "asdfgh", "asdfghjkl", "zxcvbn", "zxcvbnm",
  "letmein", "iloveyou", "welcome", "admin", "administrator", "abc", "abcdef", "abcdefgh", "monkey", "dragon",
  "football", "baseball", "basketball", "soccer", "hockey", "sunshine", "princess", "master", "shadow", "superman",
  "batman", "trustno1", "starwars", "whatever", "freedom", "michael", "jennifer", "jordan", "hunter", "ranger",
  "charlie", "donald", "login", "secret", "changeme", "default", "guest", "test", "tester", "computer",
  "internet", "summer", "winter", "spring", "autumn", "flower", "cheese", "chocolate", "pokemon", "killer",
  "courier", "pharmacy", "delivery", "deliver", "rxcourier", "prescription", "qazwsx", "1qaz2wsx", "zaq12wsx", "iloveu",
  "lovely", "loveme", "mypassword", "newpassword", "password1", "passwordpassword", "homelesspa", "blink182", "liverpool", "chelsea",
];

/** Exact passwords of 12 characters or more that top the leaked lists. */
const COMMON_PASSWORDS = new Set([
  "123456789012", "1234567890123", "12345678901234", "123123123123", "111111111111", "000000000000",
  "qwertyuiop12", "qwerty123456", "1q2w3e4r5t6y", "1qaz2wsx3edc", "q1w2e3r4t5y6", "zaq12wsxcde3",
  "password1234", "password12345", "password123456", "iloveyou1234", "abcdefghijkl", "abc123abc123",
  "qwertyqwerty", "asdfasdfasdf", "asdfghjkl123", "aaaaaaaaaaaa", "qweasdzxc123", "1234qwerasdf",
  "123456abcdef", "abcdef123456", "987654321098", "098765432112", "121212121212", "112233445566",
  "correcthorsebatterystaple", "deliver-safely",
]);

const SEQUENCES = ["0123456789", "9876543210", "abcdefghijklmnopqrstuvwxyz", "qwertyuiopasdfghjklzxcvbnm"];

function isCommon(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower)) return true;
  // One character, or one short run, repeated: "aaaaaaaaaaaa", "abcabcabcabc".
  if (/^(.{1,3})\1+$/u.test(lower)) return true;
  // A common word with nothing but digits and punctuation around it.
  const core = lower.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
  if (core.length > 0 && COMMON_WORDS.includes(core)) return true;
  const digitsOnlyCore = lower.replace(/[^\p{L}\p{N}]/gu, "");
  if (COMMON_WORDS.includes(digitsOnlyCore)) return true;
  // A run along the keyboard or the alphabet: "1234567890ab", "abcdefghijklm".
  const alnum = lower.replace(/[^a-z0-9]/g, "");
  return SEQUENCES.some((sequence) => alnum.length >= PASSWORD_MIN_LENGTH && (sequence + sequence).includes(alnum));
}

/**
 * Why a password is refused, in words for the courier, or null when it is
 * acceptable. Length counts characters as a person sees them (code points).
 */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `The password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
  if (length > PASSWORD_MAX_LENGTH) return `The password must be at most ${PASSWORD_MAX_LENGTH} characters long.`;
  if (password.trim().length === 0) return "The password must not be only spaces.";
  if (isCommon(password)) return "This password is too common. Choose one that is harder to guess.";
  return null;
}
