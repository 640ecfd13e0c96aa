DROP INDEX game_results_recent;
DROP INDEX game_results_rated;
CREATE INDEX game_results_recent ON game_results (user_id, ended_at DESC, game_id);
CREATE INDEX game_results_rated ON game_results (user_id, pool, ended_at DESC, game_id)
    WHERE pool IS NOT NULL;
