DROP TABLE seek_players;
DROP TABLE seeks;
DROP TABLE user_stats;
DROP TABLE game_results;
DROP TABLE ratings;
ALTER TABLE game_invites DROP COLUMN seat;
ALTER TABLE games DROP COLUMN bot_accounts;
ALTER TABLE games DROP COLUMN visibility;
ALTER TABLE games DROP COLUMN rated;
