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

CREATE OR REPLACE FUNCTION game_clock_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE game_clocks k
    SET turn_started_at = NEW.turn_started_at,
        turn_bank_ms = CASE WHEN k.bank_initial_ms IS NOT NULL THEN
            COALESCE((SELECT s.bank_ms FROM game_seats s
                      WHERE s.game_id = NEW.id AND s.user_id = NEW.current_user_id
                      LIMIT 1), k.bank_initial_ms) END,
        due_at = CASE WHEN NEW.status = 'active' AND NEW.turn_started_at IS NOT NULL
                      THEN NEW.turn_started_at + COALESCE(
                          CASE WHEN k.bank_initial_ms IS NOT NULL THEN
                              COALESCE((SELECT s.bank_ms FROM game_seats s
                                        WHERE s.game_id = NEW.id
                                          AND s.user_id = NEW.current_user_id
                                        LIMIT 1), k.bank_initial_ms) END,
                          k.days_per_move::BIGINT * 86400000) END
    WHERE k.game_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION game_clock_starts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    SELECT g.turn_started_at,
           CASE WHEN NEW.bank_initial_ms IS NOT NULL THEN
               COALESCE((SELECT s.bank_ms FROM game_seats s
                         WHERE s.game_id = g.id AND s.user_id = g.current_user_id
                         LIMIT 1), NEW.bank_initial_ms) END
    INTO NEW.turn_started_at, NEW.turn_bank_ms
    FROM games g
    WHERE g.id = NEW.game_id;
    SELECT CASE WHEN g.status = 'active' AND g.turn_started_at IS NOT NULL
                THEN g.turn_started_at + COALESCE(NEW.turn_bank_ms,
                                                  NEW.days_per_move::BIGINT * 86400000) END
    INTO NEW.due_at
    FROM games g
    WHERE g.id = NEW.game_id;
    RETURN NEW;
END
$$;
