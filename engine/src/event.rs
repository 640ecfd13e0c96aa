//! The persisted vocabulary: events that record decisions, each with a type name and a
//! version, serialised as JSON.
//!
//! Only decisions are stored (game created with its seed, each player's decision, a
//! player leaving, a player taking decisions back). A decision is stored as the [`Action`] the engine accepted, with the
//! player (and for a tile the tile drawn): the action's JSON form is the public, stable
//! format clients post, so no second copy of it is kept here. A kind of action is stored
//! under its own name; the kinds recorded before that keep their older names (`RENAMED`,
//! and a `pass` is named by what it declined). Their consequences (tile drawn, points,
//! figures returned, game over) are derived by replay as [`Effect`]s. An event read with
//! an older version is upcast in [`Event::decode`], so stored games replay after any
//! upgrade.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::action::Action;
pub use crate::effect::{Effect, RankEntry};
use crate::rules::RuleValues;

/// Decision events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The game was set up: players, expansions, options and the secret seed. Never shown
    /// to clients.
    GameCreated {
        /// Decimal string (JSON numbers lose precision above 2^53).
        seed: String,
        players: u8,
        expansions: Vec<String>,
        tile_order: Option<Vec<String>>,
        /// The house rules that differ from the standard rules (variant name → value,
        /// see `crate::rules`); empty for the standard rules, and not stored then.
        rules: RuleValues,
    },
    /// A player's decision: the action as the engine accepted it (its spots named as the
    /// engine names them, the feature a choice picked by the position and spot listed; a
    /// placement names no tile: the tile placed is `tile`).
    Decided {
        player: u8,
        action: Action,
        /// `place_tile`: the id of the tile that was drawn (replay checks it against the
        /// pile).
        tile: Option<String>,
        /// `pass`: what the player declined, which names the stored event.
        declined: Option<Declined>,
    },
    /// A player left the game (resigned or forfeited on time): their figures leave the
    /// board, they are ranked last, and the others play on.
    PlayerResigned {
        player: u8,
        /// Why: `resigned` or `timed_out`.
        reason: String,
    },
    /// A player took back their last `count` decisions (all their own, none before the
    /// last reveal of hidden information: see `crate::game::Game::undo`). Replay derives
    /// the game without them.
    Undone { player: u8, count: u8 },
}

/// What a `pass` declined; each is stored under its own type name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declined {
    /// No figure on the tile just placed: `figure_skipped`.
    Figure,
    /// The abbey kept in the final abbey round: `abbey_skipped`.
    Abbey,
    /// A freed wagon taken back to the supply: `wagon_returned`.
    Wagon,
    /// No follower added at a crop circle: `crop_skipped`.
    Crop,
    /// No (more) ferries moved: `ferries_done`.
    Ferries,
    /// No robber placed: `robber_skipped`.
    Robber,
    /// A flying follower kept in the supply instead of landing (house rule
    /// `flier_landing = optional`): `landing_skipped`.
    Landing,
}

impl Declined {
    pub const ALL: [Declined; 7] = [
        Declined::Figure,
        Declined::Abbey,
        Declined::Wagon,
        Declined::Crop,
        Declined::Ferries,
        Declined::Robber,
        Declined::Landing,
    ];

    /// The stored type name of the `pass` that declined this.
    pub fn type_name(self) -> &'static str {
        match self {
            Declined::Figure => "figure_skipped",
            Declined::Abbey => "abbey_skipped",
            Declined::Wagon => "wagon_returned",
            Declined::Crop => "crop_skipped",
            Declined::Ferries => "ferries_done",
            Declined::Robber => "robber_skipped",
            Declined::Landing => "landing_skipped",
        }
    }

    fn from_type_name(kind: &str) -> Option<Declined> {
        Declined::ALL.into_iter().find(|d| d.type_name() == kind)
    }
}

/// The stored type names of the decisions recorded before decision events were named
/// after their action: (stored name, action). A kind of action added since is stored
/// under its own name; these names never change.
const RENAMED: [(&str, &str); 24] = [
    ("tile_placed", "place_tile"),
    ("figure_placed", "place_figure"),
    ("abbot_returned", "return_abbot"),
    ("abbey_placed", "place_abbey"),
    ("draw_chosen", "draw_tile"),
    ("wagon_moved", "move_wagon"),
    ("ingot_placed", "place_ingot"),
    ("magic_moved", "move_magic"),
    ("magic_removed", "remove_magic"),
    ("flew", "fly"),
    ("landed", "land"),
    ("crop_mode_chosen", "choose_crop_mode"),
    ("follower_added", "add_follower"),
    ("follower_removed", "remove_follower"),
    ("ferry_placed", "place_ferry"),
    ("ferry_moved", "move_ferry"),
    ("robber_placed", "place_robber"),
    ("scoring_ordered", "score_next"),
    ("score_figure_chosen", "choose_score_figure"),
    ("victim_chosen", "choose_victim"),
    ("message_feature_chosen", "message_feature"),
    ("message_follower_chosen", "message_follower"),
    ("message_action_taken", "message_action"),
    ("message_points_taken", "message_two_points"),
];

/// The events that record no action, in their stored form.
#[derive(Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum Lifecycle {
    GameCreated {
        seed: String,
        players: u8,
        #[serde(default)]
        expansions: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        tile_order: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "RuleValues::is_empty")]
        rules: RuleValues,
    },
    PlayerResigned {
        player: u8,
        #[serde(default = "default_reason")]
        reason: String,
    },
    Undone {
        player: u8,
        count: u8,
    },
}

fn default_reason() -> String {
    "resigned".to_string()
}

/// The action (and what a `pass` declined) that a stored decision type names.
fn action_of(kind: &str) -> Option<(&'static str, Option<Declined>)> {
    if let Some(d) = Declined::from_type_name(kind) {
        return Some(("pass", Some(d)));
    }
    if let Some((_, a)) = RENAMED.iter().find(|(k, _)| *k == kind) {
        return Some((a, None));
    }
    // an action stored under its own name (not under an older one)
    Action::NAMES
        .iter()
        .find(|a| **a == kind && !RENAMED.iter().any(|(_, r)| r == *a))
        .map(|a| (*a, None))
}

/// Why a stored event could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum EventError {
    #[error("unknown event type {0}")]
    UnknownType(String),
    #[error("event {kind} has unknown version {version}")]
    UnknownVersion { kind: String, version: u32 },
    #[error("event {kind} has a malformed payload: {reason}")]
    Malformed { kind: String, reason: String },
}

impl Event {
    /// The stable type name stored beside the payload.
    pub fn type_name(&self) -> &'static str {
        match self {
            Event::GameCreated { .. } => "game_created",
            Event::Decided {
                action, declined, ..
            } => match declined {
                Some(d) => d.type_name(),
                None => {
                    let name = action.name();
                    RENAMED
                        .iter()
                        .find(|(_, a)| *a == name)
                        .map_or(name, |(k, _)| k)
                }
            },
            Event::PlayerResigned { .. } => "player_resigned",
            Event::Undone { .. } => "undone",
        }
    }

    /// Current version of this event type's payload.
    pub fn version(&self) -> u32 {
        1
    }

    /// The player who decided, if any.
    pub fn player(&self) -> Option<u8> {
        match self {
            Event::GameCreated { .. } => None,
            Event::Decided { player, .. }
            | Event::PlayerResigned { player, .. }
            | Event::Undone { player, .. } => Some(*player),
        }
    }

    /// The action decided, if any.
    pub fn action(&self) -> Option<&Action> {
        match self {
            Event::Decided { action, .. } => Some(action),
            _ => None,
        }
    }

    /// Serialises to the stored form: (type, version, payload JSON without the type).
    pub fn encode(&self) -> (&'static str, u32, String) {
        let mut v = self.to_json();
        if let Some(m) = v.as_object_mut() {
            m.remove("type");
        }
        (self.type_name(), self.version(), v.to_string())
    }

    /// Reads the stored form, upcasting older versions.
    pub fn decode(kind: &str, version: u32, payload: &str) -> Result<Event, EventError> {
        let known = matches!(kind, "game_created" | "player_resigned" | "undone")
            || action_of(kind).is_some();
        if !known {
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
                m.insert("type".into(), serde_json::Value::String(kind.to_string()));
            }
            None => return Err(malformed("payload is not an object".into())),
        }
        Event::from_json(v).map_err(|e| malformed(e.to_string()))
    }

    /// The JSON form: the stored type name as `type`, the player, the drawn tile, then the
    /// action's fields.
    fn to_json(&self) -> serde_json::Value {
        use serde_json::Value;
        let lifecycle = match self {
            Event::GameCreated {
                seed,
                players,
                expansions,
                tile_order,
                rules,
            } => Lifecycle::GameCreated {
                seed: seed.clone(),
                players: *players,
                expansions: expansions.clone(),
                tile_order: tile_order.clone(),
                rules: rules.clone(),
            },
            Event::PlayerResigned { player, reason } => Lifecycle::PlayerResigned {
                player: *player,
                reason: reason.clone(),
            },
            Event::Undone { player, count } => Lifecycle::Undone {
                player: *player,
                count: *count,
            },
            Event::Decided {
                player,
                action,
                tile,
                ..
            } => {
                let mut m = serde_json::Map::new();
                m.insert("type".into(), Value::String(self.type_name().into()));
                m.insert("player".into(), Value::from(*player));
                if let Some(t) = tile {
                    m.insert("tile".into(), Value::String(t.clone()));
                }
                if let Ok(Value::Object(fields)) = serde_json::to_value(action) {
                    m.extend(fields.into_iter().filter(|(k, _)| k != "type"));
                }
                return Value::Object(m);
            }
        };
        serde_json::to_value(lifecycle).unwrap_or(Value::Null)
    }

    /// Reads the JSON form (strictly: unknown fields are refused).
    fn from_json(mut v: serde_json::Value) -> Result<Event, serde_json::Error> {
        use serde::de::Error;
        let kind = v.get("type").and_then(|t| t.as_str()).unwrap_or_default();
        if matches!(kind, "game_created" | "player_resigned" | "undone") {
            return Ok(match serde_json::from_value(v)? {
                Lifecycle::GameCreated {
                    seed,
                    players,
                    expansions,
                    tile_order,
                    rules,
                } => Event::GameCreated {
                    seed,
                    players,
                    expansions,
                    tile_order,
                    rules,
                },
                Lifecycle::PlayerResigned { player, reason } => {
                    Event::PlayerResigned { player, reason }
                }
                Lifecycle::Undone { player, count } => Event::Undone { player, count },
            });
        }
        let (name, declined) = action_of(kind)
            .ok_or_else(|| serde_json::Error::custom(format!("unknown event type `{kind}`")))?;
        let m = v
            .as_object_mut()
            .ok_or_else(|| serde_json::Error::custom("expected an object"))?;
        let player = m
            .remove("player")
            .ok_or_else(|| serde_json::Error::missing_field("player"))?;
        let player = u8::deserialize(player)?;
        let tile = if name == "place_tile" {
            let t = m
                .remove("tile")
                .ok_or_else(|| serde_json::Error::missing_field("tile"))?;
            Some(String::deserialize(t)?)
        } else {
            None
        };
        m.insert("type".into(), serde_json::Value::String(name.into()));
        let mut action = Action::deserialize(v)?;
        // a placement's tile is stored once, as the event's: the action names none
        if let Action::PlaceTile { tile: named, .. } = &mut action {
            *named = None;
        }
        Ok(Event::Decided {
            player,
            action,
            tile,
            declined,
        })
    }
}

impl Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Event, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        Event::from_json(v).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One stored row of every type name ever written, as it was written (keys sorted, as
    /// `encode` writes them).
    const STORED: [(&str, &str); 33] = [
        (
            "game_created",
            r#"{"expansions":["river"],"players":2,"seed":"18446744073709551615"}"#,
        ),
        (
            "tile_placed",
            r#"{"player":0,"rotation":90,"tile":"base/D","x":1,"y":0}"#,
        ),
        (
            "figure_placed",
            r#"{"figure":"big_follower","player":1,"spot":"NNE"}"#,
        ),
        ("figure_skipped", r#"{"player":0}"#),
        ("abbot_returned", r#"{"player":1}"#),
        ("abbey_placed", r#"{"player":0,"x":-1,"y":2}"#),
        ("draw_chosen", r#"{"player":0}"#),
        ("abbey_skipped", r#"{"player":2}"#),
        ("wagon_moved", r#"{"player":1,"spot":"E","x":3,"y":-4}"#),
        ("wagon_returned", r#"{"player":1}"#),
        ("ingot_placed", r#"{"player":0,"x":5,"y":6}"#),
        (
            "magic_moved",
            r#"{"figure":"witch","player":0,"spot":"C","x":0,"y":1}"#,
        ),
        ("magic_removed", r#"{"figure":"mage","player":0}"#),
        ("flew", r#"{"figure":"follower","player":3}"#),
        ("landed", r#"{"player":3,"spot":"W"}"#),
        ("crop_mode_chosen", r#"{"mode":"add","player":0}"#),
        (
            "follower_added",
            r#"{"figure":"follower","player":1,"spot":"S","x":2,"y":2}"#,
        ),
        (
            "follower_removed",
            r#"{"figure":"follower","player":1,"spot":"c1","x":2,"y":2}"#,
        ),
        ("crop_skipped", r#"{"player":1}"#),
        (
            "ferry_placed",
            r#"{"from":"N","player":0,"to":"S","x":1,"y":1}"#,
        ),
        (
            "ferry_moved",
            r#"{"from":"E","player":0,"to":"W","x":1,"y":1}"#,
        ),
        ("ferries_done", r#"{"player":0}"#),
        ("robber_placed", r#"{"player":4,"space":49}"#),
        ("robber_skipped", r#"{"player":4}"#),
        ("scoring_ordered", r#"{"player":0,"spot":"N","x":0,"y":0}"#),
        (
            "score_figure_chosen",
            r#"{"figure":"messenger","player":1}"#,
        ),
        ("victim_chosen", r#"{"player":2,"victim":0}"#),
        (
            "message_feature_chosen",
            r#"{"player":0,"spot":"C","x":0,"y":-1}"#,
        ),
        (
            "message_follower_chosen",
            r#"{"figure":"abbot","player":0,"spot":"C","x":0,"y":-1}"#,
        ),
        ("message_action_taken", r#"{"player":0}"#),
        ("message_points_taken", r#"{"player":0}"#),
        ("player_resigned", r#"{"player":1,"reason":"timed_out"}"#),
        ("undone", r#"{"count":1,"player":0}"#),
    ];

    #[test]
    fn every_stored_shape_decodes_and_encodes_back_unchanged() {
        for (kind, payload) in STORED {
            let e = Event::decode(kind, 1, payload).unwrap_or_else(|e| panic!("{kind}: {e}"));
            assert_eq!(e.encode(), (kind, 1, payload.to_string()), "{kind}");
            let json = serde_json::to_string(&e).expect("json");
            assert_eq!(serde_json::from_str::<Event>(&json).expect("read"), e);
        }
        let e = Event::decode("tile_placed", 1, STORED[1].1).expect("decodes");
        assert_eq!(
            e,
            Event::Decided {
                player: 0,
                action: Action::PlaceTile {
                    x: 1,
                    y: 0,
                    rotation: crate::geometry::Rotation::quarter_turns(1),
                    tile: None,
                },
                tile: Some("base/D".into()),
                declined: None,
            }
        );
        let e = Event::decode("wagon_returned", 1, r#"{"player":1}"#).expect("decodes");
        assert_eq!(e.action(), Some(&Action::Pass));
        assert_eq!(e.player(), Some(1));
        // an old type without a reason: resigned
        let e = Event::decode("player_resigned", 1, r#"{"player":1}"#).expect("decodes");
        assert_eq!(e.encode().2, r#"{"player":1,"reason":"resigned"}"#);
    }

    #[test]
    fn a_new_kind_of_action_is_stored_under_its_own_name() {
        // every kind has exactly one stored name, and it reads back as that kind
        for name in Action::NAMES {
            let stored = RENAMED
                .iter()
                .find(|(_, a)| a == name)
                .map_or(*name, |(k, _)| k);
            assert_eq!(action_of(stored).map(|(a, _)| a), Some(*name), "{name}");
        }
        let pass = Event::Decided {
            player: 0,
            action: Action::Pass,
            tile: None,
            declined: None,
        };
        assert_eq!(pass.encode(), ("pass", 1, r#"{"player":0}"#.to_string()));
        assert_eq!(Event::decode("pass", 1, r#"{"player":0}"#), Ok(pass));
        // the action's own name is not read where an older one is stored
        assert!(matches!(
            Event::decode("place_tile", 1, r#"{"player":0}"#),
            Err(EventError::UnknownType(_))
        ));
    }

    #[test]
    fn malformed_rows_are_refused() {
        for (kind, payload) in [
            ("figure_skipped", r#"{"player":0,"extra":1}"#),
            ("message_action_taken", r#"{"player":0,"spot":"C"}"#),
            ("figure_placed", r#"{"figure":"follower","spot":"N"}"#),
            (
                "figure_placed",
                r#"{"figure":"follower","player":0,"spot":"N","tile":"x"}"#,
            ),
            ("tile_placed", r#"{"player":0,"rotation":90,"x":1,"y":0}"#),
            (
                "tile_placed",
                r#"{"player":0,"rotation":45,"tile":"base/D","x":1,"y":0}"#,
            ),
            ("victim_chosen", r#"{"player":300,"victim":0}"#),
            ("game_created", r#"{"players":2,"seed":"1","bogus":true}"#),
            ("landed", r#"[1]"#),
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
            Event::decode("tile_placed", 2, STORED[1].1),
            Err(EventError::UnknownVersion { .. })
        ));
        assert!(matches!(
            Event::decode("tile_flipped", 1, "{}"),
            Err(EventError::UnknownType(_))
        ));
    }
}
