//! The persisted vocabulary of a tournament: the decisions, each with a stable type
//! name and a version, serialised as JSON, like the engine's game events.
//!
//! Only decisions are stored: the event created with its config, players registered
//! and withdrawn, each round's pairing (computed once, then recorded as data), each
//! game's result (played, or decided by a rule), an organiser's adjustments, and a
//! stage's end with its qualifiers. Standings, brackets and the next round are derived
//! by replay ([`crate::Tournament::replay`]). A stored row is (type, version, payload
//! without the type); [`Event::decode`] reads it and is where an older version would be
//! upcast, so a tournament replays after any upgrade.

use serde::{Deserialize, Serialize};

use crate::config::Config;
use crate::error::EventError;

/// Tournament decisions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// The event was set up with its config (stages, match length, table size, rank
    /// points, tie-break order, bye value, withdrawal and round cap rules).
    TournamentCreated { config: Config },
    /// A player entered (before the first round, or late into a Swiss first stage).
    PlayerRegistered {
        player: String,
        /// For seeding: higher first; players without one come after, in order of
        /// registration.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<i32>,
    },
    /// A player left, between rounds (they have no game left to play).
    PlayerWithdrew { player: String },
    /// The organiser invited a player (an event open by invitation only takes those
    /// invited: the server's setting, not this crate's rule).
    PlayerInvited { player: String },
    /// A round's pairing as computed by [`crate::State::next_pairing`].
    RoundPaired {
        /// 0-based stage index.
        stage: u32,
        /// 1-based round number within the stage.
        round: u32,
        tables: Vec<Table>,
        /// Players given a bye this round (Swiss: worth the configured value).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        byes: Vec<String>,
    },
    /// A game's result. `game` counts from 0 within the table's match.
    ResultRecorded {
        stage: u32,
        round: u32,
        table: u32,
        game: u32,
        result: GameResult,
    },
    /// An organiser's decision, with the reason shown to players.
    OrganiserAdjusted {
        adjustment: Adjustment,
        reason: String,
    },
    /// The organiser paused the event, with the reason shown to players: no round is
    /// paired until it resumes (results still come in). The server stops the clocks of
    /// the event's games and its round cap for as long.
    TournamentPaused { reason: String },
    /// The organiser resumed a paused event.
    TournamentResumed {},
    /// A stage ended; `qualified` enter the next stage in this seed order (computed by
    /// [`crate::State::finish_stage`] and recorded as data).
    StageFinished { stage: u32, qualified: Vec<String> },
}

/// A table of a round: its players in start order (for a 2-player match, game 0 is
/// started by `seats[0]`, game 1 by `seats[1]`, game 2 by `seats[0]` again: A-B-A).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// 1-based, unique in the round.
    pub table: u32,
    pub seats: Vec<String>,
    /// The knockout bracket's name for this match (`W1.1`, `L2.3`, `GF`, `GF2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bracket: Option<String>,
}

/// A game's outcome: one score per seat in the table's seat order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameResult {
    pub scores: Vec<i64>,
    /// Set when the game was decided by a rule rather than played to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<Decision>,
}

/// A result decided by rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Decision {
    /// These seats (indices into the table's seats) forfeited: they are placed below
    /// everyone else, the others by score.
    Forfeit { seats: Vec<u8> },
    /// The round cap passed: the scores are those of the board scored as if the game
    /// ended now.
    ScoreIfEndedNow,
}

/// What an organiser may change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Adjustment {
    /// Adds (or with a negative value removes) points in the current stage.
    Points { player: String, half_points: i32 },
    /// Replaces a game's recorded result.
    ResultCorrected {
        stage: u32,
        round: u32,
        table: u32,
        game: u32,
        result: GameResult,
    },
    /// Removes a player: as a withdrawal, recorded after the forfeits of every game
    /// they had left in the round ([`crate::State::removal`]).
    PlayerRemoved { player: String },
}

/// Every stored type name.
pub const TYPE_NAMES: [&str; 10] = [
    "tournament_created",
    "player_registered",
    "player_withdrew",
    "player_invited",
    "round_paired",
    "result_recorded",
    "organiser_adjusted",
    "stage_finished",
    "tournament_paused",
    "tournament_resumed",
];

impl Event {
    /// The stable type name stored beside the payload.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::TournamentCreated { .. } => "tournament_created",
            Event::PlayerRegistered { .. } => "player_registered",
            Event::PlayerWithdrew { .. } => "player_withdrew",
            Event::PlayerInvited { .. } => "player_invited",
            Event::RoundPaired { .. } => "round_paired",
            Event::ResultRecorded { .. } => "result_recorded",
            Event::OrganiserAdjusted { .. } => "organiser_adjusted",
            Event::StageFinished { .. } => "stage_finished",
            Event::TournamentPaused { .. } => "tournament_paused",
            Event::TournamentResumed {} => "tournament_resumed",
        }
    }

    /// Current version of this event type's payload.
    pub fn version(&self) -> u32 {
        1
    }

    /// Serialises to the stored form: (type, version, payload JSON without the type).
    pub fn encode(&self) -> (&'static str, u32, String) {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let Some(m) = v.as_object_mut() {
            m.remove("type");
        }
        (self.type_name(), self.version(), v.to_string())
    }

    /// Reads the stored form, upcasting older versions (there are none yet).
    pub fn decode(kind: &str, version: u32, payload: &str) -> Result<Event, EventError> {
        if !TYPE_NAMES.contains(&kind) {
            return Err(EventError::UnknownType(kind.to_string()));
        }
        if version != 1 {
            return Err(EventError::UnknownVersion {
                kind: kind.to_string(),
                version,
            });
        }
        let malformed = |reason: String| EventError::Malformed {
            kind: kind.to_string(),
            reason,
        };
        let mut v: serde_json::Value =
            serde_json::from_str(payload).map_err(|e| malformed(e.to_string()))?;
        match v.as_object_mut() {
            Some(m) => {
                if m.contains_key("type") {
                    return Err(malformed("the payload names its own type".into()));
                }
                m.insert("type".into(), serde_json::Value::String(kind.to_string()));
            }
            None => return Err(malformed("payload is not an object".into())),
        }
        serde_json::from_value(v).map_err(|e| malformed(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One stored row of every type name, as written (keys sorted, as `encode` writes them).
    const STORED: [(&str, &str); 12] = [
        (
            "tournament_created",
            r#"{"config":{"bye_half_points":2,"round_cap":{"days":14,"decision":"score_if_ended_now"},"seed":"42","stages":[{"best_of":1,"entry":{"kind":"registered"},"format":{"kind":"swiss","rounds":5},"table_size":2}],"withdrawal":"forfeit_unplayed"}}"#,
        ),
        ("player_registered", r#"{"player":"u1","rating":1500}"#),
        ("player_registered", r#"{"player":"u2"}"#),
        ("player_withdrew", r#"{"player":"u2"}"#),
        ("player_invited", r#"{"player":"u5"}"#),
        (
            "round_paired",
            r#"{"byes":["u4"],"round":1,"stage":0,"tables":[{"seats":["u1","u3"],"table":1}]}"#,
        ),
        (
            "result_recorded",
            r#"{"game":0,"result":{"scores":[80,75]},"round":1,"stage":0,"table":1}"#,
        ),
        (
            "result_recorded",
            r#"{"game":0,"result":{"decision":{"kind":"forfeit","seats":[1]},"scores":[0,0]},"round":1,"stage":0,"table":1}"#,
        ),
        (
            "organiser_adjusted",
            r#"{"adjustment":{"half_points":-1,"kind":"points","player":"u1"},"reason":"late"}"#,
        ),
        ("stage_finished", r#"{"qualified":["u1","u3"],"stage":0}"#),
        ("tournament_paused", r#"{"reason":"a venue's power cut"}"#),
        ("tournament_resumed", r#"{}"#),
    ];

    #[test]
    fn every_stored_shape_decodes_and_encodes_back_unchanged() {
        for (kind, payload) in STORED {
            let e = Event::decode(kind, 1, payload).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(e.encode(), (kind, 1, payload.to_string()), "{kind}");
        }
    }

    #[test]
    fn malformed_rows_are_refused() {
        for (kind, payload) in [
            ("player_registered", r#"{"player":"u1","bogus":1}"#),
            ("player_withdrew", r#"{}"#),
            ("player_withdrew", r#"[1]"#),
            (
                "player_withdrew",
                r#"{"player":"u1","type":"stage_finished"}"#,
            ),
            ("stage_finished", r#"{"stage":-1,"qualified":[]}"#),
        ] {
            assert!(
                matches!(
                    Event::decode(kind, 1, payload),
                    Err(EventError::Malformed { .. })
                ),
                "{kind} {payload}"
            );
        }
        assert!(matches!(
            Event::decode("player_withdrew", 2, r#"{"player":"u1"}"#),
            Err(EventError::UnknownVersion { .. })
        ));
        assert!(matches!(
            Event::decode("player_flipped", 1, "{}"),
            Err(EventError::UnknownType(_))
        ));
    }
}
