DROP INDEX users_email;
DROP TABLE account_tokens;
ALTER TABLE users DROP COLUMN deleted_at;
ALTER TABLE users DROP COLUMN email_verified_at;
