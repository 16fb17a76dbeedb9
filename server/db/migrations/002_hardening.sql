-- Issue 9 (hardening).
-- An email change waits here until the new address's code is verified; until then the old
-- address stays the sign-in address (Cognito's "keep original attribute value active").
ALTER TABLE users ADD COLUMN pending_email text;

-- An invitation of an existing account is pending until its invitee accepts or declines it.
ALTER TABLE invitations ADD COLUMN declined_at bigint;
