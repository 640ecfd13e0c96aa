CREATE INDEX clocks_unreminded ON game_clocks (due_at)
WHERE due_at IS NOT NULL AND reminded_turn IS DISTINCT FROM turn_started_at;
DROP INDEX clocks_remind;
DROP INDEX clocks_unplanned;
ALTER TABLE game_clocks DROP COLUMN reminded_before;
ALTER TABLE game_clocks DROP COLUMN remind_at;
ALTER TABLE game_clocks DROP COLUMN planned_turn;
DROP TABLE reminder_settings;
