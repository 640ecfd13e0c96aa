-- Reminders a user chooses (docs/notifications.md): a list of hours before each
-- deadline (JSON, largest first); none: the server's default (one reminder,
-- `TILEPOST_REMINDER_BEFORE_SECS` before).
CREATE TABLE reminder_settings (
    user_id TEXT PRIMARY KEY REFERENCES users (id),
    hours TEXT NOT NULL
);

-- Each running turn's reminders, planned by the sweep when it first sees the turn
-- (`planned_turn`: the turn start it planned for): `remind_at` when the next one is due
-- (none: no more for this turn), `reminded_before` the offset (ms) of the last one sent
-- for `reminded_turn`.
ALTER TABLE game_clocks ADD COLUMN planned_turn BIGINT;
ALTER TABLE game_clocks ADD COLUMN remind_at BIGINT;
ALTER TABLE game_clocks ADD COLUMN reminded_before BIGINT;

-- turns whose reminders are not planned yet, by base deadline
CREATE INDEX clocks_unplanned ON game_clocks (due_at)
WHERE due_at IS NOT NULL AND planned_turn IS DISTINCT FROM turn_started_at;
-- planned reminders by time
CREATE INDEX clocks_remind ON game_clocks (remind_at) WHERE remind_at IS NOT NULL;
DROP INDEX clocks_unreminded;
