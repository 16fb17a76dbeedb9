-- One-time invitation links (issue 35): the accept link of an invitation to a new address carries
-- a random token, not the account's password. Only a SHA-256 of each is kept (32 random bytes, so
-- the hash is not worth reversing). A token sets the account's first password once, within its
-- expiry; a resend replaces it (superseded_at), and a used, replaced or expired one is told so.
CREATE TABLE invitation_tokens (
  token_hash text PRIMARY KEY,
  invitation_id uuid NOT NULL REFERENCES invitations(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint,
  superseded_at bigint
);
CREATE INDEX invitation_tokens_invitation ON invitation_tokens (invitation_id);
