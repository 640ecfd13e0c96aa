DROP INDEX game_results_recent;
DROP INDEX game_results_rated;
CREATE INDEX game_results_recent ON game_results (user_id, ended_at DESC, game_id DESC)
    INCLUDE (seats, rank, score, outcome, public, pool, rating_before, rating_after,
             deviation_after);
CREATE INDEX game_results_rated ON game_results (user_id, pool, ended_at DESC, game_id DESC)
    INCLUDE (seats, rank, score, outcome, public, rating_before, rating_after, deviation_after)
    WHERE pool IS NOT NULL;
ALTER TABLE user_stats DROP COLUMN uncounted;
ALTER TABLE game_results DROP COLUMN unrated_reason;
