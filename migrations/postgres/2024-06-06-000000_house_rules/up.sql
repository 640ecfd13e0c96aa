-- House rules chosen at creation: a JSON object of the variants that differ from the
-- standard rules (null: the standard rules). Carried into the creation event when the
-- game starts.
ALTER TABLE games ADD COLUMN rules TEXT;
