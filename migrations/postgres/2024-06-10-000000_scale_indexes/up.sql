-- What the scale measurements called for (docs/scaling.md):
-- the deadline sweep reads running games by turn start, never the finished ones;
CREATE INDEX games_running_by_turn ON games (turn_started_at) WHERE status = 'active';
-- and leaves out the server's own bots (a handful of users among many);
CREATE INDEX users_bots ON users (bot) WHERE bot IS NOT NULL;
-- the outbox is pruned by age (TILEPOST_OUTBOX_RETENTION_DAYS) and claimed oldest first.
CREATE INDEX outbox_by_age ON outbox (status, created_at);
