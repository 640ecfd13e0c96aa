-- The daily digest: `digest_hour` (0-23, in the user's time zone) turns it on; the turn
-- emails of games it covers are not sent (unless the deadline is less than 24 hours
-- away). `digest_sent_on`: the local date (YYYY-MM-DD) of the last digest, so each day
-- has at most one, whichever process sends it.
ALTER TABLE users ADD COLUMN digest_hour INTEGER;
ALTER TABLE users ADD COLUMN digest_sent_on TEXT;
