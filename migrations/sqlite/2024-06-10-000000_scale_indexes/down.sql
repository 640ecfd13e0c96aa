DROP INDEX outbox_by_age;
DROP INDEX games_running_by_turn;
