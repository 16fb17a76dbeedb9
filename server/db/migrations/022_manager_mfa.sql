-- MFA required by role: an organisation's owner may require multi-factor authentication of its
-- managers (admins and owners). A manager without it is asked to set it up at sign-in (MFA_SETUP)
-- and is refused the organisation's data until then (server/http/mfa-rule.ts).
ALTER TABLE organisations ADD COLUMN manager_mfa_required boolean NOT NULL DEFAULT false;
