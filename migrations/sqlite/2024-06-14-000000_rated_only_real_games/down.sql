ALTER TABLE user_stats DROP COLUMN uncounted;
ALTER TABLE game_results DROP COLUMN unrated_reason;
