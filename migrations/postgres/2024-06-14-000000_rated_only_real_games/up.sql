-- A rated game that changed no rating says why (`too_short`: a player made fewer than
-- two decisions of their own; `pair_limit`: two of its players already had their day's
-- count of rated games together), and a profile counts such games.
ALTER TABLE game_results ADD COLUMN unrated_reason TEXT;
ALTER TABLE user_stats ADD COLUMN uncounted INTEGER NOT NULL DEFAULT 0;
-- The covering indexes carry the new column, so that profiles and rating histories stay
-- index-only scans; the recent one also counts a pair's rated games of the last day.
DROP INDEX game_results_recent;
DROP INDEX game_results_rated;
CREATE INDEX game_results_recent ON game_results (user_id, ended_at DESC, game_id DESC)
    INCLUDE (seats, rank, score, outcome, public, pool, rating_before, rating_after,
             deviation_after, unrated_reason);
CREATE INDEX game_results_rated ON game_results (user_id, pool, ended_at DESC, game_id DESC)
    INCLUDE (seats, rank, score, outcome, public, rating_before, rating_after, deviation_after,
             unrated_reason)
    WHERE pool IS NOT NULL;
