-- How emails are written to a user: their locale (`en`, `pt-BR`) and IANA time zone.
ALTER TABLE users ADD COLUMN locale TEXT NOT NULL DEFAULT 'en';
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
