-- Recovery codes for a lost authenticator: made (and shown once) after TOTP MFA is on, each usable
-- once at the sign-in's code step in place of a TOTP code. Only a SHA-256 of each is kept: a code
-- has 79 bits of randomness, so the hash is not worth reversing (server/identity/recovery-codes.ts).
CREATE TABLE mfa_recovery_codes (
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  created_at bigint NOT NULL,
  used_at bigint,
  PRIMARY KEY (user_id, code_hash)
);
