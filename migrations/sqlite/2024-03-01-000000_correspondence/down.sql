DROP TABLE chat_messages;
DROP TABLE game_invites;
DROP TABLE vacations;
DROP TABLE game_clocks;
