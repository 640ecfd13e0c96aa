DROP TRIGGER game_clock_follows;
DROP TRIGGER game_clock_starts;

CREATE TRIGGER game_clock_follows AFTER UPDATE OF status, turn_started_at ON games
FOR EACH ROW
WHEN OLD.status IS NOT NEW.status OR OLD.turn_started_at IS NOT NEW.turn_started_at
BEGIN
    UPDATE game_clocks
    SET turn_started_at = NEW.turn_started_at,
        due_at = CASE WHEN NEW.status = 'active' AND NEW.turn_started_at IS NOT NULL
                      THEN NEW.turn_started_at + days_per_move * 86400000 END
    WHERE game_id = NEW.id;
END;

CREATE TRIGGER game_clock_starts AFTER INSERT ON game_clocks
FOR EACH ROW
BEGIN
    UPDATE game_clocks
    SET turn_started_at = (SELECT g.turn_started_at FROM games g WHERE g.id = NEW.game_id),
        due_at = (SELECT CASE WHEN g.status = 'active' AND g.turn_started_at IS NOT NULL
                              THEN g.turn_started_at + NEW.days_per_move * 86400000 END
                  FROM games g WHERE g.id = NEW.game_id)
    WHERE game_id = NEW.game_id;
END;

ALTER TABLE game_seats DROP COLUMN bank_ms;
ALTER TABLE game_clocks DROP COLUMN turn_bank_ms;
ALTER TABLE game_clocks DROP COLUMN bank_max_ms;
ALTER TABLE game_clocks DROP COLUMN bank_increment_ms;
ALTER TABLE game_clocks DROP COLUMN bank_initial_ms;
