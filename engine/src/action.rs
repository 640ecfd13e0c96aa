//! What a player decides: [`Action`], the one definition of a decision. It is what
//! `legal_actions()` lists, what `play()` takes, what a stored decision event carries
//! (see `crate::event`) and, as JSON, what clients post and the API documents (with the
//! `openapi` feature the types derive `utoipa::ToSchema`).
//!
//! The JSON form is read strictly: unknown fields, unknown kinds, bad rotations and
//! numbers out of range are refused by the types themselves, so every reader (the API,
//! stored events, third-party Rust clients) shares one reader.

use serde::{Deserialize, Serialize};

use crate::figures::{FigureKind, MagicFigure};
use crate::geometry::Rotation;

/// An action; the options listed by `legal_actions()` (the API's `…/actions`) are
/// complete and can be posted as they are.
///
/// Adding a kind of action: the variant here (a unit variant also gets
/// `#[serde(deserialize_with = "no_fields")]`), the phase that asks for it, its listing
/// and its arm in the gate (an expansion's: in its `Decisions`, see
/// `crate::expansions::decisions`). Its decision event is stored under the action's own
/// name.
#[derive(
    Clone, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[strum(serialize_all = "snake_case")]
#[cfg_attr(
    feature = "openapi",
    derive(utoipa::ToSchema),
    schema(
        as = ActionDto,
        description = "An action; the options listed by `…/actions` are complete and can be posted as they are."
    )
)]
pub enum Action {
    /// Place the drawn tile (with the house rule `tiles_in_hand`, a tile of the hand).
    PlaceTile {
        x: i32,
        y: i32,
        /// Degrees clockwise: 0, 90, 180 or 270.
        #[cfg_attr(
            feature = "openapi",
            schema(value_type = u16, minimum = 0, maximum = 270, multiple_of = 90)
        )]
        rotation: Rotation,
        /// The catalog id of the tile to place: one of the player's hand (house rule
        /// `tiles_in_hand`), needed when the hand holds tiles of more than one type; when
        /// given with a single drawn tile it must name that tile.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "openapi", schema(max_length = 32))]
        tile: Option<String>,
    },
    /// Put a figure on the tile just placed.
    PlaceFigure {
        figure: FigureKind,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// The Abbot: take the abbot back from an incomplete monastery or garden instead of
    /// placing a figure.
    #[serde(deserialize_with = "no_fields")]
    ReturnAbbot,
    /// Abbey & Mayor: place the abbey into a hole (an empty cell with tiles on all four
    /// sides) instead of drawing a tile, or in the final abbey round.
    PlaceAbbey { x: i32, y: i32 },
    /// Abbey & Mayor: draw a tile rather than place the abbey.
    #[serde(deserialize_with = "no_fields")]
    DrawTile,
    /// Abbey & Mayor: move a freed wagon onto a road, city or monastery in reach.
    MoveWagon {
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Gold Mines: put the second ingot on a tile around the gold tile.
    PlaceIngot { x: i32, y: i32 },
    /// Mage & Witch: place or move the mage or the witch onto an incomplete road or city.
    MoveMagic {
        figure: MagicFigure,
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Mage & Witch: set a figure aside (offered only when no move is possible).
    RemoveMagic { figure: MagicFigure },
    /// Flying Machines: send a follower flying instead of placing a figure; the die
    /// decides the target tile.
    Fly { figure: FigureKind },
    /// Flying Machines: land the flying follower on a spot of the target tile.
    Land {
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Crop Circles: add or remove.
    ChooseCropMode { mode: CropMode },
    /// Crop Circles: add a follower next to one of your followers of the circle's role.
    AddFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Crop Circles: take back one of your followers of the circle's role.
    RemoveFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Ferries: the ferry of the lake at (x,y) joins the road ends leaving by sides
    /// `from` and `to` (`N`, `E`, `S`, `W`).
    PlaceFerry {
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 1))]
        from: String,
        #[cfg_attr(feature = "openapi", schema(max_length = 1))]
        to: String,
    },
    /// Ferries: move the ferry of the lake at (x,y) to join `from` and `to`.
    MoveFerry {
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 1))]
        from: String,
        #[cfg_attr(feature = "openapi", schema(max_length = 1))]
        to: String,
    },
    /// Robbers: put your robber on this track space (0–49), one holding another player's
    /// score figure.
    PlaceRobber {
        #[cfg_attr(feature = "openapi", schema(maximum = 49))]
        space: u8,
    },
    /// Robbers / Messages: score this completed feature next (named by a spot on one of
    /// its tiles).
    ScoreNext {
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Messages: the score figure that moves for the points being awarded.
    ChooseScoreFigure { figure: ScoreFigure },
    /// Robbers: rob this player (a seat) when the score figures of several players leave
    /// your robber's space in one award batch (a tie in one feature).
    ChooseVictim {
        #[cfg_attr(feature = "openapi", schema(maximum = 5))]
        victim: u8,
    },
    /// Messages 1–3: score this smallest road, city or monastery of yours.
    MessageFeature {
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Message 8: score this follower's feature and take the follower back.
    MessageFollower {
        figure: FigureKind,
        x: i32,
        y: i32,
        #[cfg_attr(feature = "openapi", schema(max_length = 16))]
        spot: String,
    },
    /// Messages 4–7: carry out the drawn message (an extra tile, or its points).
    #[serde(deserialize_with = "no_fields")]
    MessageAction,
    /// Messages: 2 points instead of the drawn message.
    #[serde(deserialize_with = "no_fields")]
    MessageTwoPoints,
    /// Place no figure (or: keep the abbey in the final round, take a freed wagon back,
    /// add no follower at a crop circle, move no more ferries, place no robber).
    #[serde(deserialize_with = "no_fields")]
    Pass,
}

impl Action {
    /// The name of every kind of action (the JSON `type`).
    pub const NAMES: &'static [&'static str] = <Action as strum::VariantNames>::VARIANTS;

    /// This action's kind (its JSON `type`).
    pub fn name(&self) -> &'static str {
        self.into()
    }

    /// The spot this action names, if it names one.
    pub(crate) fn spot_mut(&mut self) -> Option<&mut String> {
        match self {
            Action::PlaceFigure { spot, .. }
            | Action::MoveWagon { spot, .. }
            | Action::MoveMagic { spot, .. }
            | Action::Land { spot }
            | Action::AddFollower { spot, .. }
            | Action::RemoveFollower { spot, .. }
            | Action::ScoreNext { spot, .. }
            | Action::MessageFeature { spot, .. }
            | Action::MessageFollower { spot, .. } => Some(spot),
            _ => None,
        }
    }
}

/// Crop Circles: what every player with a follower of the circle's role does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum CropMode {
    Add,
    Remove,
}

/// The Messages' score figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum ScoreFigure {
    Meeple,
    Messenger,
}

/// The fields of a unit variant: none. serde ignores `deny_unknown_fields` on the unit
/// variants of an internally tagged enum, so they are read through this.
fn no_fields<'de, D: serde::Deserializer<'de>>(d: D) -> Result<(), D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct NoFields {}
    NoFields::deserialize(d).map(|NoFields {}| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(json: &str) -> Result<Action, serde_json::Error> {
        serde_json::from_str(json)
    }

    #[test]
    fn names_are_the_json_types() {
        // serde names every kind when refusing an unknown one
        let e = read(r#"{"type": "?"}"#)
            .expect_err("unknown kind")
            .to_string();
        let listed = e.split("expected one of ").nth(1).expect("the kinds");
        let listed = listed.split(" at line ").next().expect("the kinds");
        let serde_names: Vec<&str> = listed.split(", ").map(|s| s.trim_matches('`')).collect();
        assert_eq!(serde_names, Action::NAMES);
        let a = Action::PlaceTile {
            x: 1,
            y: -2,
            rotation: Rotation::quarter_turns(1),
            tile: None,
        };
        assert_eq!(a.name(), "place_tile");
        assert_eq!(Action::MessageTwoPoints.name(), "message_two_points");
    }

    #[test]
    fn every_kind_refuses_unknown_fields() {
        for name in Action::NAMES {
            let e = read(&format!(r#"{{"type": "{name}", "bogus": 1}}"#))
                .expect_err(name)
                .to_string();
            assert!(
                e.contains("unknown field") || e.contains("missing field"),
                "{name}: {e}"
            );
        }
        // a unit kind with only its type is read
        assert_eq!(read(r#"{"type": "pass"}"#).expect("pass"), Action::Pass);
        let e = read(r#"{"type": "pass", "extra": 1}"#).expect_err("extra");
        assert!(e.to_string().contains("unknown field `extra`"), "{e}");
    }

    #[test]
    fn the_reader_is_strict() {
        let ok = r#"{"type": "place_tile", "x": 1, "y": 0, "rotation": 90}"#;
        assert_eq!(
            read(ok).expect("read"),
            Action::PlaceTile {
                x: 1,
                y: 0,
                rotation: Rotation::quarter_turns(1),
                tile: None,
            }
        );
        for bad in [
            r#"{"type": "place_tile", "x": 1, "y": 0, "rotation": 45}"#,
            r#"{"type": "place_tile", "x": 1, "y": 0, "rotation": -90}"#,
            r#"{"type": "place_tile", "x": 1e12, "y": 0, "rotation": 0}"#,
            r#"{"type": "place_tile", "x": 1, "y": 0, "rotation": 0, "z": 3}"#,
            r#"{"type": "place_figure", "figure": "dragon", "spot": "N"}"#,
            r#"{"type": "place_robber", "space": 256}"#,
            r#"{"type": "fly"}"#,
            r#"{"x": 1}"#,
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_json_form_is_unchanged() {
        let cases = [
            (
                Action::PlaceTile {
                    x: 1,
                    y: -2,
                    rotation: Rotation::quarter_turns(3),
                    tile: None,
                },
                r#"{"type":"place_tile","x":1,"y":-2,"rotation":270}"#,
            ),
            (
                Action::PlaceTile {
                    x: 0,
                    y: 1,
                    rotation: Rotation::quarter_turns(0),
                    tile: Some("base/D".into()),
                },
                r#"{"type":"place_tile","x":0,"y":1,"rotation":0,"tile":"base/D"}"#,
            ),
            (
                Action::PlaceFigure {
                    figure: FigureKind::BigFollower,
                    spot: "NNE".into(),
                },
                r#"{"type":"place_figure","figure":"big_follower","spot":"NNE"}"#,
            ),
            (
                Action::MoveMagic {
                    figure: MagicFigure::Witch,
                    x: 0,
                    y: 1,
                    spot: "C".into(),
                },
                r#"{"type":"move_magic","figure":"witch","x":0,"y":1,"spot":"C"}"#,
            ),
            (
                Action::PlaceFerry {
                    x: 3,
                    y: 4,
                    from: "N".into(),
                    to: "S".into(),
                },
                r#"{"type":"place_ferry","x":3,"y":4,"from":"N","to":"S"}"#,
            ),
            (
                Action::ChooseCropMode {
                    mode: CropMode::Remove,
                },
                r#"{"type":"choose_crop_mode","mode":"remove"}"#,
            ),
            (
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Messenger,
                },
                r#"{"type":"choose_score_figure","figure":"messenger"}"#,
            ),
            (Action::ReturnAbbot, r#"{"type":"return_abbot"}"#),
            (Action::Pass, r#"{"type":"pass"}"#),
        ];
        for (a, json) in cases {
            assert_eq!(serde_json::to_string(&a).expect("json"), json);
            assert_eq!(read(json).expect("read"), a);
        }
    }
}
