CREATE OR REPLACE FUNCTION game_clock_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE game_clocks
    SET turn_started_at = NEW.turn_started_at,
        due_at = CASE WHEN NEW.status = 'active' AND NEW.turn_started_at IS NOT NULL
                      THEN NEW.turn_started_at + days_per_move::BIGINT * 86400000 END
    WHERE game_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION game_clock_starts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT g.turn_started_at,
           CASE WHEN g.status = 'active' AND g.turn_started_at IS NOT NULL
                THEN g.turn_started_at + NEW.days_per_move::BIGINT * 86400000 END
    INTO NEW.turn_started_at, NEW.due_at
    FROM games g
    WHERE g.id = NEW.game_id;
    RETURN NEW;
END
$$;

ALTER TABLE game_seats DROP COLUMN bank_ms;
ALTER TABLE game_clocks DROP COLUMN turn_bank_ms;
ALTER TABLE game_clocks DROP COLUMN bank_max_ms;
ALTER TABLE game_clocks DROP COLUMN bank_increment_ms;
ALTER TABLE game_clocks DROP COLUMN bank_initial_ms;
