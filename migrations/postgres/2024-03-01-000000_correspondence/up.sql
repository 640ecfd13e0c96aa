-- Correspondence play: clocks, vacations, invitations and chat. Times are milliseconds
-- since the Unix epoch (UTC).

-- A game's clock (no row: no clock). `reminded_turn` is the `turn_started_at` of the
-- turn whose deadline reminder went out (at most one per turn).
CREATE TABLE game_clocks (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    days_per_move INTEGER NOT NULL,
    reminded_turn BIGINT
);

-- Vacations: the clocks of the user's games stand still from `started_at` until the
-- first of `ends_at` (the planned end, or where the bank runs out) and `ended_at`
-- (ended by hand or by the user's next move when `until_move`).
CREATE TABLE vacations (
    id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    started_at BIGINT NOT NULL,
    ends_at BIGINT NOT NULL,
    until_move INTEGER NOT NULL DEFAULT 0,
    ended_at BIGINT
);
CREATE INDEX vacations_by_user ON vacations (user_id, started_at);

-- Invitations to open games: a pending invitation reserves a seat.
CREATE TABLE game_invites (
    game_id TEXT NOT NULL REFERENCES games (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX game_invites_by_user ON game_invites (user_id, status);

-- Chat: `n` numbers a game's messages from 1; `after_seq` is the game's version when
-- the message was written (its place in the events feed).
CREATE TABLE chat_messages (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    n BIGINT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    body TEXT NOT NULL,
    after_seq BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE UNIQUE INDEX chat_by_game ON chat_messages (game_id, n);
