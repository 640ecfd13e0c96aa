-- What a game's analysis shows while it runs (`full`, `scores`, `none`), chosen at
-- creation: by default `scores` in a rated game and `full` in a casual one.
ALTER TABLE games ADD COLUMN assistance TEXT NOT NULL DEFAULT 'full';
UPDATE games SET assistance = 'scores' WHERE rated = 1;

-- A finished game's review by the strongest bot (docs/analysis.md): queued when a rated
-- game ends or a player asks, judged on the bots' pool, kept. `judged` is the JSON list
-- of the decisions judged so far; `total` how many there are to judge.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    status TEXT NOT NULL,
    total INTEGER NOT NULL DEFAULT 0,
    judged TEXT NOT NULL DEFAULT '[]',
    error TEXT,
    requested_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX reviews_queue ON reviews (status, requested_at);
