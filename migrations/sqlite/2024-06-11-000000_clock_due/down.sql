DROP INDEX clocks_due;
DROP INDEX clocks_unreminded;
DROP TRIGGER game_clock_starts;
DROP TRIGGER game_clock_follows;
ALTER TABLE game_clocks DROP COLUMN due_at;
ALTER TABLE game_clocks DROP COLUMN turn_started_at;
