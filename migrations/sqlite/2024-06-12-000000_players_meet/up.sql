-- Players find each other (docs/players.md): rated games, private games, ratings,
-- results, profiles' figures, seeks, and rematches' seats.

-- A game is rated or casual, and public or private, from its creation.
ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN visibility TEXT NOT NULL DEFAULT 'public';
-- Whether accounts marked as bots may take a seat (in a rated game only if it says so).
ALTER TABLE games ADD COLUMN bot_accounts INTEGER NOT NULL DEFAULT 1;
-- An invitation may reserve a given seat (a rematch rotates the seats).
ALTER TABLE game_invites ADD COLUMN seat INTEGER;

-- A player's Glicko-2 rating in a pool (`base` or `expansions`).
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    pool TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    games INTEGER NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, pool)
);
-- the leaderboard: established ratings only (deviation at most 110), best first
CREATE INDEX ratings_board ON ratings (pool, rating DESC, user_id) WHERE deviation <= 110;

-- Each player's result of each ended game, with the rating change of a rated one: the
-- profile's recent games and the rating history.
CREATE TABLE game_results (
    user_id TEXT NOT NULL REFERENCES users (id),
    game_id TEXT NOT NULL REFERENCES games (id),
    ended_at BIGINT NOT NULL,
    seats INTEGER NOT NULL,
    rank INTEGER NOT NULL,
    score INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    public INTEGER NOT NULL,
    pool TEXT,
    rating_before REAL,
    rating_after REAL,
    deviation_after REAL,
    PRIMARY KEY (user_id, game_id)
);
CREATE INDEX game_results_recent ON game_results (user_id, ended_at DESC, game_id);
CREATE INDEX game_results_rated ON game_results (user_id, pool, ended_at DESC, game_id)
    WHERE pool IS NOT NULL;

-- A player's figures over the games that ended, kept with each ending.
CREATE TABLE user_stats (
    user_id TEXT PRIMARY KEY REFERENCES users (id),
    played INTEGER NOT NULL,
    finished INTEGER NOT NULL,
    won INTEGER NOT NULL,
    resigned INTEGER NOT NULL,
    timed_out INTEGER NOT NULL,
    moves BIGINT NOT NULL,
    move_ms BIGINT NOT NULL
);

-- The lobby: a seek is a game looking for players; full, it becomes a game.
CREATE TABLE seeks (
    id TEXT PRIMARY KEY,
    creator_id TEXT NOT NULL REFERENCES users (id),
    seats INTEGER NOT NULL,
    expansions TEXT NOT NULL,
    rules TEXT,
    days_per_move INTEGER,
    rated INTEGER NOT NULL,
    min_rating INTEGER,
    max_rating INTEGER,
    min_finish_rate INTEGER,
    status TEXT NOT NULL,
    game_id TEXT REFERENCES games (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX seeks_open ON seeks (created_at, id) WHERE status = 'seeking';
CREATE INDEX seeks_by_creator ON seeks (creator_id, status);

-- `position`: the order the players joined in (the game's seat order)
CREATE TABLE seek_players (
    seek_id TEXT NOT NULL REFERENCES seeks (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    position INTEGER NOT NULL,
    joined_at BIGINT NOT NULL,
    PRIMARY KEY (seek_id, user_id)
);
CREATE INDEX seek_players_by_user ON seek_players (user_id);
