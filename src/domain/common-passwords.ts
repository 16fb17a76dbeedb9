import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * zxcvbn-ts's list of the commonest passwords (49,000 from leaked-password corpora, lower case).
 * Built into a Set on first use, so the login page pays nothing until a password is checked.
 */
let common: Set<string> | undefined;

/**
 * Whether a password is a common one, or a common one with digits and symbols put around it to
 * meet the composition rules ("Password1!", "!Summer2026"): those are the first guesses.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  const lower = password.normalize('NFKC').toLowerCase();
  const core = lower.replace(/[^\p{L}]+$/u, '');
  const inner = core.replace(/^[^\p{L}]+/u, '');
  return [lower, core, inner].some((c) => c.length >= 3 && common!.has(c));
}
