-- Issue 9 (hardening), second part: 002_hardening.sql was already merged and may be applied.
-- Failed sign-ins to addresses that have no account, counted exactly like a real account's
-- (users.failed_logins / locked_until), so a lockout answer cannot tell the two apart.
CREATE TABLE sign_in_failures (
  username text PRIMARY KEY,
  failed_logins integer NOT NULL,
  locked_until bigint NOT NULL
);
CREATE INDEX sign_in_failures_locked_until ON sign_in_failures (locked_until);
