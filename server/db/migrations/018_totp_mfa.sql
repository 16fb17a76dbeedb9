-- TOTP multi-factor authentication (the user pool's software token MFA). Secrets are stored
-- encrypted (server/identity/totp.ts): the one being set up until a code proves it, then the
-- verified one. totp_last_step is the time step of the last code accepted, so a code is never
-- accepted twice.
ALTER TABLE users ADD COLUMN totp_pending text;
ALTER TABLE users ADD COLUMN totp_secret text;
ALTER TABLE users ADD COLUMN totp_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN totp_last_step bigint NOT NULL DEFAULT 0;

-- Re-authentication: when the sign-in (refresh token) last proved the account's current password
-- again (POST /api/reauthenticate). Turning MFA off and changing the email need it to be recent.
ALTER TABLE refresh_tokens ADD COLUMN reauthenticated_at bigint;
