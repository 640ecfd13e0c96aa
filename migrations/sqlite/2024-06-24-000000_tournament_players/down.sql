ALTER TABLE tournaments DROP COLUMN rounds_paired;
DROP TABLE tournament_players;
