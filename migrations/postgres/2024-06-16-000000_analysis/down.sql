DROP TABLE reviews;
ALTER TABLE games DROP COLUMN assistance;
