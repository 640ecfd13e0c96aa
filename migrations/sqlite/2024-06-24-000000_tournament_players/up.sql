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

INSERT OR IGNORE INTO tournament_players (tournament_id, user_id, withdrawn)
SELECT e.tournament_id, json_extract(e.payload, '$.player'), 0
FROM tournament_events e
JOIN users u ON u.id = json_extract(e.payload, '$.player')
WHERE e.event_type = 'player_registered';

UPDATE tournament_players SET withdrawn = 1
WHERE EXISTS (
    SELECT 1 FROM tournament_events e
    WHERE e.tournament_id = tournament_players.tournament_id
      AND ((e.event_type = 'player_withdrew'
            AND json_extract(e.payload, '$.player') = tournament_players.user_id)
        OR (e.event_type = 'organiser_adjusted'
            AND json_extract(e.payload, '$.adjustment.kind') = 'player_removed'
            AND json_extract(e.payload, '$.adjustment.player') = tournament_players.user_id))
);

ALTER TABLE tournaments ADD COLUMN rounds_paired INTEGER NOT NULL DEFAULT 0;
UPDATE tournaments SET rounds_paired = (
    SELECT COUNT(*) FROM tournament_events e
    WHERE e.tournament_id = tournaments.id AND e.event_type = 'round_paired'
);
