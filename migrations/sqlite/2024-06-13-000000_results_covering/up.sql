-- The order the pages are read in (newest first, the game id breaking ties downwards);
-- Postgres also makes these indexes covering.
DROP INDEX game_results_recent;
DROP INDEX game_results_rated;
CREATE INDEX game_results_recent ON game_results (user_id, ended_at DESC, game_id DESC);
CREATE INDEX game_results_rated ON game_results (user_id, pool, ended_at DESC, game_id DESC)
    WHERE pool IS NOT NULL;
