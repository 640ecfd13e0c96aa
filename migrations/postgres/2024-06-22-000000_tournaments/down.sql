DROP TABLE tournament_games;
DROP TABLE tournament_events;
DROP TABLE tournaments;
