/** The grouped secret people type into an authenticator app that cannot scan: ABCD EFGH ... */
export const groupSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

/** A recovery code as typed: 16 letters and digits, in any case, with or without hyphens and spaces. */
export const normaliseRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
export const looksLikeRecoveryCode = (code: string) => /^[a-z0-9]{16}$/.test(normaliseRecoveryCode(code));

/** What the sign-in's code step takes: the app's 6 digits (spaces ignored) or a recovery code. */
export const isSignInCode = (code: string) => /^\d{6}$/.test(code.replace(/\s/g, '')) || looksLikeRecoveryCode(code);
