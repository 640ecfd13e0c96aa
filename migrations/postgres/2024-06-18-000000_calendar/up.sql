-- A user's deadline calendar (docs/notifications.md): a secret feed URL, of which the
-- server keeps only the SHA-256 (hex). One per user: a new one replaces the old.
CREATE TABLE calendar_feeds (
    user_id TEXT PRIMARY KEY REFERENCES users (id),
    token_hash TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL
);
