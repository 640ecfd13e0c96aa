-- Accounts that can be recovered, secured and deleted.
-- `email_verified_at`: when the current address was confirmed (null: unconfirmed, and
-- then it receives the confirmation email and nothing else). Accounts from before this
-- rule keep receiving their emails: their addresses count as confirmed at sign-up.
-- `deleted_at`: the account was deleted; the row stays, anonymised, so that the seats of
-- its games keep a name (`deleted-user-…`), and no token or login reaches it.
ALTER TABLE users ADD COLUMN email_verified_at BIGINT;
ALTER TABLE users ADD COLUMN deleted_at BIGINT;
UPDATE users SET email_verified_at = created_at;

-- Single-use links sent by email (address confirmation, password reset): only a
-- SHA-256 hash of each token is stored; `email` is the address it was sent to (a
-- confirmation holds only while the account still has that address).
CREATE TABLE account_tokens (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    purpose TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX account_tokens_user ON account_tokens (user_id, purpose);
CREATE INDEX users_email ON users (lower(email));
