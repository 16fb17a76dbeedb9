-- A verification or reset code replaced by a newer one (the user asked for another): it proves
-- nothing any more, but its link, clicked later, is told it was replaced rather than that it is wrong.
ALTER TABLE identity_codes ADD COLUMN superseded_at bigint;
