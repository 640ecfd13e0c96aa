DROP TABLE turn_plans;
DROP TABLE standing_orders;
ALTER TABLE game_events DROP COLUMN decided_by;
