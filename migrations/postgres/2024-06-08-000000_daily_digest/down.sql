ALTER TABLE users DROP COLUMN digest_sent_on;
ALTER TABLE users DROP COLUMN digest_hour;
