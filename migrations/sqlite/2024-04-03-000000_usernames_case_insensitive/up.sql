-- Usernames are unique regardless of case: `ann` and `ANN` are one account. A name that
-- clashed before this migration keeps the oldest holder (then the smallest id); each
-- later holder's name gets a suffix of its id, so every account stays reachable (and the
-- rename can be seen in the account's own `GET /v1/users/me`).
UPDATE users SET username = substr(username, 1, 23) || '-' || substr(id, 1, 8)
WHERE EXISTS (
    SELECT 1 FROM users AS older
    WHERE lower(older.username) = lower(users.username)
      AND (older.created_at < users.created_at
           OR (older.created_at = users.created_at AND older.id < users.id))
);

CREATE UNIQUE INDEX users_username_lower ON users (lower(username));
