-- Tournaments (docs/tournaments.md): the summary row of each event, its append-only
-- decision log (`UNIQUE (tournament_id, seq)`: two writers race into a clean conflict)
-- and the link from each game to its place in the event. Standings, brackets and the
-- next round are derived by replaying the log.
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    organiser_id TEXT NOT NULL REFERENCES users (id),
    status TEXT NOT NULL,
    -- the settings as created (JSON): the crate's config and the server's own
    config TEXT NOT NULL,
    -- events in the log
    version BIGINT NOT NULL,
    players INTEGER NOT NULL,
    current_stage INTEGER NOT NULL,
    current_round INTEGER NOT NULL,
    round_started_at BIGINT,
    -- the round cap: games still running then are decided by the configured rule
    round_deadline BIGINT,
    -- a round waiting for its calendar date is paired then
    next_round_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX tournaments_created ON tournaments (created_at, id);
CREATE INDEX tournaments_due ON tournaments (status, round_deadline);

CREATE TABLE tournament_events (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    seq BIGINT NOT NULL,
    event_type TEXT NOT NULL,
    event_version INTEGER NOT NULL,
    payload TEXT NOT NULL,
    actor_id TEXT,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, seq)
);

CREATE TABLE tournament_games (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    stage INTEGER NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    game_no INTEGER NOT NULL,
    -- the seq of the tournament event that recorded the game's result
    result_seq BIGINT,
    UNIQUE (tournament_id, stage, round, table_no, game_no)
);
CREATE INDEX tournament_games_unrecorded ON tournament_games (tournament_id) WHERE result_seq IS NULL;
