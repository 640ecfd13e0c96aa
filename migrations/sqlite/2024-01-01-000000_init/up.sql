-- Portable types only: text ids, text JSON, bigint sequence numbers and times
-- (milliseconds since the Unix epoch, UTC), integer flags.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    username TEXT NOT NULL UNIQUE,
    email TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    notify_turn INTEGER NOT NULL DEFAULT 1,
    notify_finished INTEGER NOT NULL DEFAULT 1,
    created_at BIGINT NOT NULL
);

CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE games (
    id TEXT PRIMARY KEY,
    creator_id TEXT NOT NULL REFERENCES users (id),
    status TEXT NOT NULL,
    seats INTEGER NOT NULL,
    expansions TEXT NOT NULL,
    tile_order TEXT,
    version BIGINT NOT NULL DEFAULT 0,
    current_user_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    turn_started_at BIGINT
);
CREATE INDEX games_by_status ON games (status, updated_at);
CREATE INDEX games_by_current_user ON games (current_user_id);

CREATE TABLE game_seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX game_seats_by_user ON game_seats (user_id);

CREATE TABLE game_events (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    event_version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    actor_id TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
    user_id TEXT NOT NULL,
    idem_key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, idem_key)
);

CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    user_id TEXT NOT NULL REFERENCES users (id),
    game_id TEXT,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    delivered_at BIGINT,
    created_at BIGINT NOT NULL
);
CREATE INDEX outbox_by_due ON outbox (status, next_attempt_at);
