DROP INDEX outbox_by_age;
DROP INDEX users_bots;
DROP INDEX games_running_by_turn;
