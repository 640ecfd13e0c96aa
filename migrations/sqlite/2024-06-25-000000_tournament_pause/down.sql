ALTER TABLE game_clocks DROP COLUMN paused_turn;
ALTER TABLE game_clocks DROP COLUMN paused_ms;
ALTER TABLE game_clocks DROP COLUMN paused_at;
ALTER TABLE tournaments DROP COLUMN paused_at;
