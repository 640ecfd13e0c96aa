-- Decisions the server records on a player's behalf.
-- `decided_by`: who took the decision an event records; null: its player, by a request.
-- `system`: the only legal option; `standing_order`: the player's standing order;
-- `plan`: the player's conditional turn.
ALTER TABLE game_events ADD COLUMN decided_by TEXT;

-- Standing orders: a player's answer to a kind of decision taken outside their turn.
-- `game_id` is '' for the player's default in every game; a row of a game overrides it.
CREATE TABLE standing_orders (
    user_id TEXT NOT NULL REFERENCES users (id),
    game_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    answer TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, game_id, kind)
);
CREATE INDEX standing_orders_game ON standing_orders (game_id);

-- Conditional turns: "if I draw `tile`, play `actions`" (a JSON list of actions: the
-- placement and the figure or a pass). Private to their player, dropped after their turn.
CREATE TABLE turn_plans (
    game_id TEXT NOT NULL REFERENCES games (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    tile TEXT NOT NULL,
    actions TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id, tile)
);
