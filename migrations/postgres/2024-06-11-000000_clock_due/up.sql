-- The deadline sweep reads only the turns that need it (docs/scaling.md): each clock
-- keeps its game's turn start and base deadline (`due_at`: the turn start plus the days
-- per move, none unless the game is running), kept by triggers whatever writes the game.
ALTER TABLE game_clocks ADD COLUMN turn_started_at BIGINT;
ALTER TABLE game_clocks ADD COLUMN due_at BIGINT;

UPDATE game_clocks k
SET turn_started_at = g.turn_started_at,
    due_at = CASE WHEN g.status = 'active' AND g.turn_started_at IS NOT NULL
                  THEN g.turn_started_at + k.days_per_move::BIGINT * 86400000 END
FROM games g
WHERE g.id = k.game_id;

CREATE FUNCTION game_clock_follows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE game_clocks
    SET turn_started_at = NEW.turn_started_at,
        due_at = CASE WHEN NEW.status = 'active' AND NEW.turn_started_at IS NOT NULL
                      THEN NEW.turn_started_at + days_per_move::BIGINT * 86400000 END
    WHERE game_id = NEW.id;
    RETURN NULL;
END
$$;

CREATE TRIGGER game_clock_follows AFTER UPDATE OF status, turn_started_at ON games
FOR EACH ROW
WHEN (OLD.status IS DISTINCT FROM NEW.status
      OR OLD.turn_started_at IS DISTINCT FROM NEW.turn_started_at)
EXECUTE FUNCTION game_clock_follows();

CREATE FUNCTION game_clock_starts() RETURNS trigger LANGUAGE plpgsql AS $$
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

CREATE TRIGGER game_clock_starts BEFORE INSERT ON game_clocks
FOR EACH ROW EXECUTE FUNCTION game_clock_starts();

-- turns whose reminder has not gone out, by base deadline
CREATE INDEX clocks_unreminded ON game_clocks (due_at)
WHERE due_at IS NOT NULL AND reminded_turn IS DISTINCT FROM turn_started_at;
-- every running turn by base deadline (the timeouts)
CREATE INDEX clocks_due ON game_clocks (due_at) WHERE due_at IS NOT NULL;
