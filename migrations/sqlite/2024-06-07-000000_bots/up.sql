-- Computer opponents: `bot` names the level (`random`, `greedy`, `mcts`) of an account the
-- server plays itself; null for a person.
ALTER TABLE users ADD COLUMN bot TEXT;
