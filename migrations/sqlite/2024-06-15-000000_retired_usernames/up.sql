-- The usernames of deleted accounts, in lower case, with when they were retired: a new
-- account may not take one (for TILEPOST_RETIRED_NAME_DAYS, default forever), so that
-- links, profiles and players who knew the name never point at somebody else.
CREATE TABLE retired_usernames (
    name TEXT PRIMARY KEY,
    retired_at BIGINT NOT NULL
);
