DROP TABLE outbox;
DROP TABLE idempotency_keys;
DROP TABLE game_events;
DROP TABLE game_seats;
DROP TABLE games;
DROP TABLE settings;
DROP TABLE users;
