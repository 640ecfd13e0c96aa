-- Indexes that serve the lists, which page in the query with keyset cursors
-- (`WHERE (key) > (cursor) ORDER BY key LIMIT n + 1`).

-- Games by status, most recently updated first (the list's groups "running", "open",
-- "finished", and `status=`), with the id that makes the key unique.
DROP INDEX games_by_status;
CREATE INDEX games_by_status_updated ON games (status, updated_at, id);

-- The caller's turns (`my_turn=true`, and the list's first group): running games by
-- the player whose decision is pending, longest waiting first. Partial: only running
-- games have a pending decision. It takes the place of the index on current_user_id
-- alone (which a planner would otherwise prefer for its size).
CREATE INDEX games_my_turn ON games (current_user_id, turn_started_at, id)
    WHERE status = 'active';
DROP INDEX games_by_current_user;

-- `player=`: the games where a user has a seat.
DROP INDEX game_seats_by_user;
CREATE INDEX game_seats_by_user ON game_seats (user_id, game_id);

-- An endpoint's deliveries, newest first.
DROP INDEX webhook_deliveries_by_endpoint;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at, id);

-- The history pages on the key (game_id, seq) and the chat on the unique
-- (game_id, n): both exist since the first migrations.
