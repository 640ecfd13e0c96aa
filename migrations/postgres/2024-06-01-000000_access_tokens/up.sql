-- Access tokens that can be revoked: one row per login session (its id is the `sid`
-- claim of the JWT handed out) and per personal access token (only the SHA-256 of its
-- secret is kept). Every authenticated request reads its row joined with its user, so a
-- revoked (deleted) row or a deleted user refuses the token. Expired rows are deleted as
-- new sessions of their user are created.
CREATE TABLE access_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    -- `session` (a login) or `personal` (a personal access token)
    kind TEXT NOT NULL,
    -- a personal access token's name; NULL for sessions
    name TEXT,
    -- hex SHA-256 of a personal access token's secret; NULL for sessions
    secret_hash TEXT UNIQUE,
    -- the scopes, separated by spaces
    scopes TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    -- NULL: never expires (a personal access token without an expiry)
    expires_at BIGINT
);
CREATE INDEX access_tokens_user ON access_tokens (user_id, kind, created_at, id);
