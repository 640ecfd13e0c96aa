DROP TABLE retired_usernames;
