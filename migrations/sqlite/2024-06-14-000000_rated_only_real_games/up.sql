-- A rated game that changed no rating says why (`too_short`: a player made fewer than
-- two decisions of their own; `pair_limit`: two of its players already had their day's
-- count of rated games together), and a profile counts such games.
ALTER TABLE game_results ADD COLUMN unrated_reason TEXT;
ALTER TABLE user_stats ADD COLUMN uncounted INTEGER NOT NULL DEFAULT 0;
