-- The live stream (`GET /v1/stream`): one row per event and recipient, numbered in the
-- order rows are inserted (AUTOINCREMENT: a number is never used twice, even after the
-- newest rows are pruned). The number is the SSE event id a client resumes from with
-- `Last-Event-ID`; rows older than the retention are pruned by the sweep.
CREATE TABLE stream_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id TEXT NOT NULL REFERENCES users (id),
    kind TEXT NOT NULL,
    game_id TEXT,
    payload TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX stream_events_user_id ON stream_events (user_id, id);
CREATE INDEX stream_events_created ON stream_events (created_at);
