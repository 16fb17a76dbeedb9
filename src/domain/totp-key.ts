/** The grouped secret people type into an authenticator app that cannot scan: ABCD EFGH ... */
export const groupSecret = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();
