DROP INDEX webhook_deliveries_by_endpoint;
CREATE INDEX webhook_deliveries_by_endpoint ON webhook_deliveries (endpoint_id, created_at);
DROP INDEX game_seats_by_user;
CREATE INDEX game_seats_by_user ON game_seats (user_id);
DROP INDEX games_my_turn;
CREATE INDEX games_by_current_user ON games (current_user_id);
DROP INDEX games_by_status_updated;
CREATE INDEX games_by_status ON games (status, updated_at);
