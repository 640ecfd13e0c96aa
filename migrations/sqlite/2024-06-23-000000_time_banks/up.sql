-- Time banks (docs/correspondence.md): besides days per move, a clock may give each
-- player a bank (`bank_initial_ms` at the start, `bank_increment_ms` added after each of
-- their turns, at most `bank_max_ms`); `days_per_move` is 0 then. Each seat keeps what
-- is left of its bank after its last turn (`game_seats.bank_ms`; none yet: the initial
-- bank), and the clock keeps the bank the current turn started with (`turn_bank_ms`),
-- from which the base deadline follows.
ALTER TABLE game_clocks ADD COLUMN bank_initial_ms BIGINT;
ALTER TABLE game_clocks ADD COLUMN bank_increment_ms BIGINT;
ALTER TABLE game_clocks ADD COLUMN bank_max_ms BIGINT;
ALTER TABLE game_clocks ADD COLUMN turn_bank_ms BIGINT;
ALTER TABLE game_seats ADD COLUMN bank_ms BIGINT;

DROP TRIGGER game_clock_follows;
DROP TRIGGER game_clock_starts;

CREATE TRIGGER game_clock_follows AFTER UPDATE OF status, turn_started_at ON games
FOR EACH ROW
WHEN OLD.status IS NOT NEW.status OR OLD.turn_started_at IS NOT NEW.turn_started_at
BEGIN
    UPDATE game_clocks
    SET turn_started_at = NEW.turn_started_at,
        turn_bank_ms = CASE WHEN bank_initial_ms IS NOT NULL THEN
            COALESCE((SELECT s.bank_ms FROM game_seats s
                      WHERE s.game_id = NEW.id AND s.user_id = NEW.current_user_id
                      LIMIT 1), bank_initial_ms) END
    WHERE game_id = NEW.id;
    UPDATE game_clocks
    SET due_at = CASE WHEN NEW.status = 'active' AND NEW.turn_started_at IS NOT NULL
                      THEN NEW.turn_started_at
                           + COALESCE(turn_bank_ms, days_per_move * 86400000) END
    WHERE game_id = NEW.id;
END;

CREATE TRIGGER game_clock_starts AFTER INSERT ON game_clocks
FOR EACH ROW
BEGIN
    UPDATE game_clocks
    SET turn_started_at = (SELECT g.turn_started_at FROM games g WHERE g.id = NEW.game_id),
        turn_bank_ms = CASE WHEN NEW.bank_initial_ms IS NOT NULL THEN
            COALESCE((SELECT s.bank_ms FROM game_seats s, games g
                      WHERE g.id = NEW.game_id AND s.game_id = g.id
                        AND s.user_id = g.current_user_id
                      LIMIT 1), NEW.bank_initial_ms) END
    WHERE game_id = NEW.game_id;
    UPDATE game_clocks
    SET due_at = (SELECT CASE WHEN g.status = 'active' AND g.turn_started_at IS NOT NULL
                              THEN g.turn_started_at
                                   + COALESCE(game_clocks.turn_bank_ms,
                                              NEW.days_per_move * 86400000) END
                  FROM games g WHERE g.id = NEW.game_id)
    WHERE game_id = NEW.game_id;
END;
