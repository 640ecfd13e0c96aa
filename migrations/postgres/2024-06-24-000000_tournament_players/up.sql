-- The players of each tournament as its log has them: registered, and whether they
-- withdrew or were removed. Written with the log's events in the same transaction, so
-- that a user's events are found by an index (the deadline calendar lists their
-- rounds). `rounds_paired` counts the rounds paired over all the event's stages: the
-- next round's place in the settings' `round_starts`. Both are filled from the logs
-- that exist.
CREATE TABLE tournament_players (
    tournament_id TEXT NOT NULL REFERENCES tournaments (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    withdrawn INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);
CREATE INDEX tournament_players_user ON tournament_players (user_id, withdrawn);

INSERT INTO tournament_players (tournament_id, user_id, withdrawn)
SELECT e.tournament_id, e.payload::jsonb ->> 'player', 0
FROM tournament_events e
JOIN users u ON u.id = e.payload::jsonb ->> 'player'
WHERE e.event_type = 'player_registered'
ON CONFLICT DO NOTHING;

UPDATE tournament_players p SET withdrawn = 1
WHERE EXISTS (
    SELECT 1 FROM tournament_events e
    WHERE e.tournament_id = p.tournament_id
      AND ((e.event_type = 'player_withdrew' AND e.payload::jsonb ->> 'player' = p.user_id)
        OR (e.event_type = 'organiser_adjusted'
            AND e.payload::jsonb -> 'adjustment' ->> 'kind' = 'player_removed'
            AND e.payload::jsonb -> 'adjustment' ->> 'player' = p.user_id))
);

ALTER TABLE tournaments ADD COLUMN rounds_paired INTEGER NOT NULL DEFAULT 0;
UPDATE tournaments t SET rounds_paired = (
    SELECT COUNT(*) FROM tournament_events e
    WHERE e.tournament_id = t.id AND e.event_type = 'round_paired'
);
