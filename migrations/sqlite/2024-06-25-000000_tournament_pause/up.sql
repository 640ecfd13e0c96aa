-- The organiser's pause (docs/tournaments.md): `tournaments.paused_at` is when the
-- event was paused (none: it is not); the sweep applies no round cap and pairs no dated
-- round while it is set. The clocks of the event's running games stand still for as
-- long: `game_clocks.paused_at` is when the clock was stopped, and `paused_ms` is how
-- long it stood still during the turn that started at `paused_turn` (the deadline and
-- the bank of that turn count it out, as they count out vacations).
ALTER TABLE tournaments ADD COLUMN paused_at BIGINT;
ALTER TABLE game_clocks ADD COLUMN paused_at BIGINT;
ALTER TABLE game_clocks ADD COLUMN paused_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE game_clocks ADD COLUMN paused_turn BIGINT;
