/**
 * The password policy's messages, apart from the policy (password-policy.ts), which carries the
 * common-password list (400 kB): a page that only shows the rule (the new-password form of the
 * sign-in page, the sign-up wizard's texts) does not load the list.
 */
/** What a form shows under the password field when the policy is not met. */
export const PASSWORD_POLICY_MESSAGE =
  'Password must be at least 8 characters long and contain lowercase, uppercase, numeric and symbol characters.';
export const COMMON_PASSWORD_MESSAGE = 'This password is too common and easy to guess. Please choose another.';
export const CONTROL_CHARACTER_MESSAGE = 'Password must not contain control characters.';
