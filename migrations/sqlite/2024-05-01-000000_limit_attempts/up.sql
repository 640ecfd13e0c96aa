-- Counted attempts of the abuse limits (failed logins per account and per client address,
-- sign-ups per address): one row per attempt, so that every server process sees the same
-- counts. Rows older than the longest window are deleted as new ones come in.
CREATE TABLE limit_attempts (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    subject TEXT NOT NULL,
    at BIGINT NOT NULL
);
CREATE INDEX limit_attempts_subject ON limit_attempts (kind, subject, at);
CREATE INDEX limit_attempts_at ON limit_attempts (at);
