-- A profile's latest results and a page of a rating history read a player's rows of
-- game_results, which lie on as many heap pages as rows (a row is written when its game
-- ends). Covering indexes, in the order the pages are read (newest first, the game id
-- breaking ties downwards), answer both with index-only scans: a page or two whatever
-- the size of the table.
DROP INDEX game_results_recent;
DROP INDEX game_results_rated;
CREATE INDEX game_results_recent ON game_results (user_id, ended_at DESC, game_id DESC)
    INCLUDE (seats, rank, score, outcome, public, pool, rating_before, rating_after,
             deviation_after);
CREATE INDEX game_results_rated ON game_results (user_id, pool, ended_at DESC, game_id DESC)
    INCLUDE (seats, rank, score, outcome, public, rating_before, rating_after, deviation_after)
    WHERE pool IS NOT NULL;
