//! House rules: the rule variants a game may be created with, their catalog and the named
//! presets.
//!
//! Every variant defaults to the engine's standard rules (the `[choice]` resolutions of
//! the rules reference), so a game created without house rules plays as before. A game's
//! variants are part of its creation event, stored as a map of variant name to value that
//! lists only the values that differ from the default (a game with the standard rules
//! stores nothing, and a game stored before house rules existed reads as standard).
//!
//! The typed set is [`HouseRules`]; its wire form is [`RuleValues`] (name → value, both
//! strings); [`rule_catalog`] describes every variant (name, description, allowed values,
//! default, the expansion it belongs to) and every preset. Each rule is applied where its
//! expansion's rules live (`expansions/*.rs`, base scoring in `game/scoring.rs`); this
//! module only names and validates them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A game's house rules on the wire and in the creation event: variant name → value,
/// the values that differ from the default only.
pub type RuleValues = BTreeMap<String, String>;

/// Why a variant, a value or a preset is refused.
#[derive(Debug, Error, PartialEq, Eq, Clone)]
pub enum RuleError {
    #[error("unknown house rule {0}")]
    UnknownRule(String),
    #[error("house rule {rule} does not take the value {value} (allowed: {allowed})")]
    BadValue {
        rule: String,
        value: String,
        allowed: String,
    },
    #[error("unknown house-rule preset {0}")]
    UnknownPreset(String),
}

/// A variant whose values are a closed set of names.
trait Choice: Sized + Copy + Default + PartialEq {
    /// Every value, the default first.
    const VALUES: &'static [&'static str];
    fn as_str(self) -> &'static str;
    fn parse(s: &str) -> Option<Self>;
}

macro_rules! choice {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            #[default]
            $($(#[$vm])* $var),+
        }
        impl Choice for $name {
            const VALUES: &'static [&'static str] = &[$($s),+];
            fn as_str(self) -> &'static str {
                match self { $($name::$var => $s),+ }
            }
            fn parse(s: &str) -> Option<Self> {
                match s { $($s => Some($name::$var),)+ _ => None }
            }
        }
    };
}

choice!(
    /// Points for a completed city of two tiles.
    SmallCity {
        /// 2 per tile and per pennant, like any completed city (4 without pennant).
        Four = "4",
        /// First edition: 1 per tile and per pennant (2 without pennant).
        Two = "2",
    }
);

choice!(
    /// How farmers score at the end of the game.
    FieldScoring {
        /// Each field pays its majority 3 per completed city it touches; a city touching
        /// several fields pays each of them.
        PerField = "per_field",
        /// First edition: each completed city pays 4 once, to the majority of the farmers
        /// in all the fields that touch it.
        PerCity = "per_city",
    }
);

choice!(
    /// What becomes of a drawn tile that fits nowhere.
    UnplaceableTile {
        /// Removed from the game; the player draws again.
        Removed = "removed",
        /// Put back into the pile, which is shuffled again from the game's seed; the
        /// player draws again.
        Reshuffled = "reshuffled",
    }
);

choice!(
    /// Points for a completed monastery or garden that holds an abbot.
    AbbotCompleted {
        Nine = "9",
        Seven = "7",
    }
);

choice!(
    /// A rule that is played or not, played by default.
    On {
        Yes = "on",
        No = "off",
    }
);

choice!(
    /// A rule that is played or not, not played by default.
    Off {
        No = "off",
        Yes = "on",
    }
);

choice!(
    /// Whether a flying follower that can land must land.
    FlierLanding {
        /// Landing is mandatory when a landing spot exists.
        Mandatory = "mandatory",
        /// The player may keep the follower in the supply instead of landing.
        Optional = "optional",
    }
);

choice!(
    /// What the active player does when the mage and the witch meet in one feature.
    MagicMeeting {
        /// One of them moves to another legal feature (set aside only if none is legal).
        Move = "move",
        /// One of them is set aside.
        Remove = "remove",
    }
);

choice!(
    /// How many drawn tiles each player holds (and chooses from on their turn).
    TilesInHand {
        /// The standard rules: the drawn tile is played at once.
        One = "1",
        Two = "2",
        Three = "3",
    }
);

impl TilesInHand {
    /// The number of tiles a hand holds.
    pub fn count(self) -> usize {
        match self {
            TilesInHand::One => 1,
            TilesInHand::Two => 2,
            TilesInHand::Three => 3,
        }
    }
}

impl On {
    pub fn on(self) -> bool {
        self == On::Yes
    }
}

impl Off {
    pub fn on(self) -> bool {
        self == Off::Yes
    }
}

/// A game's rule variants, each defaulting to the standard rules. Its serde form is its
/// wire form ([`RuleValues`]: the values that differ from the default), read strictly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(try_from = "RuleValues", into = "RuleValues")]
pub struct HouseRules {
    /// `small_city_points`
    pub small_city: SmallCity,
    /// `field_scoring`
    pub field_scoring: FieldScoring,
    /// `unplaceable_tile`
    pub unplaceable_tile: UnplaceableTile,
    /// `abbot_completed_points` (The Abbot)
    pub abbot_completed: AbbotCompleted,
    /// `robbers_end_bonus_3` (The Robbers): a robber still on the track after final
    /// scoring earns its owner 3 points.
    pub robbers_end_bonus: Off,
    /// `big_follower` (Inns & Cathedrals)
    pub big_follower: On,
    /// `builder` (Traders & Builders)
    pub builder: On,
    /// `pig` (Traders & Builders)
    pub pig: On,
    /// `mayor` (Abbey & Mayor)
    pub mayor: On,
    /// `wagon` (Abbey & Mayor)
    pub wagon: On,
    /// `barn` (Abbey & Mayor)
    pub barn: On,
    /// `flier_landing` (Flying Machines)
    pub flier_landing: FlierLanding,
    /// `magic_meeting` (Mage & Witch)
    pub magic_meeting: MagicMeeting,
    /// `tiles_in_hand`: each player holds this many drawn tiles, hidden from the others,
    /// and plays one of them per turn.
    pub tiles_in_hand: TilesInHand,
}

/// One entry of the variant table: name, expansion, description, values, and the
/// accessors of its field.
struct Variant {
    name: &'static str,
    expansion: Option<&'static str>,
    description: &'static str,
    values: &'static [&'static str],
    get: fn(&HouseRules) -> &'static str,
    set: fn(&mut HouseRules, &str) -> bool,
}

fn set_choice<T: Choice>(field: &mut T, value: &str) -> bool {
    match T::parse(value) {
        Some(v) => {
            *field = v;
            true
        }
        None => false,
    }
}

macro_rules! variant {
    ($name:literal, $exp:expr, $field:ident: $ty:ty, $desc:literal) => {
        Variant {
            name: $name,
            expansion: $exp,
            description: $desc,
            values: <$ty as Choice>::VALUES,
            get: |r| r.$field.as_str(),
            set: |r, v| set_choice(&mut r.$field, v),
        }
    };
}

/// Every variant, in catalog order.
const VARIANTS: &[Variant] = &[
    variant!(
        "small_city_points",
        None,
        small_city: SmallCity,
        "Points for a completed city of only two tiles: 4 (2 per tile and pennant, as any \
         completed city) or 2 (first edition: 1 per tile and pennant)."
    ),
    variant!(
        "field_scoring",
        None,
        field_scoring: FieldScoring,
        "Farmers at the end: per_field (each field pays its majority 3 per completed city it \
         touches, so one city can pay several fields) or per_city (first edition: each \
         completed city pays 4 once, to the majority of the farmers in all fields touching it)."
    ),
    variant!(
        "unplaceable_tile",
        None,
        unplaceable_tile: UnplaceableTile,
        "A drawn tile that fits nowhere is removed from the game (removed) or put back into \
         the pile, which is shuffled again (reshuffled); either way the player draws again."
    ),
    variant!(
        "abbot_completed_points",
        Some("abbot"),
        abbot_completed: AbbotCompleted,
        "Points for a completed monastery or garden that holds an abbot: 9, or 7 (as the \
         Carcassonne Plus manual prints it)."
    ),
    variant!(
        "robbers_end_bonus_3",
        Some("robbers"),
        robbers_end_bonus: Off,
        "After final scoring, each robber still on the score track earns its owner 3 points \
         (on) or returns without effect (off)."
    ),
    variant!(
        "big_follower",
        Some("inns_cathedrals"),
        big_follower: On,
        "Play Inns & Cathedrals with (on) or without (off) the big follower."
    ),
    variant!(
        "builder",
        Some("traders_builders"),
        builder: On,
        "Play Traders & Builders with (on) or without (off) the builder."
    ),
    variant!(
        "pig",
        Some("traders_builders"),
        pig: On,
        "Play Traders & Builders with (on) or without (off) the pig."
    ),
    variant!(
        "mayor",
        Some("abbey_mayor"),
        mayor: On,
        "Play Abbey & Mayor with (on) or without (off) the mayor."
    ),
    variant!(
        "wagon",
        Some("abbey_mayor"),
        wagon: On,
        "Play Abbey & Mayor with (on) or without (off) the wagon."
    ),
    variant!(
        "barn",
        Some("abbey_mayor"),
        barn: On,
        "Play Abbey & Mayor with (on) or without (off) the barn."
    ),
    variant!(
        "flier_landing",
        Some("flying_machines"),
        flier_landing: FlierLanding,
        "A flying follower that can land must land (mandatory) or may stay in the supply \
         instead (optional)."
    ),
    variant!(
        "magic_meeting",
        Some("mage_witch"),
        magic_meeting: MagicMeeting,
        "When the mage and the witch meet in one feature, one of them moves to another \
         feature (move) or is set aside (remove)."
    ),
    variant!(
        "tiles_in_hand",
        None,
        tiles_in_hand: TilesInHand,
        "Each player holds this many drawn tiles (1, 2 or 3), hidden from the others, and \
         places one of them per turn; the hand is filled up from the pile at the start of \
         the turn. The game ends when the pile and every hand are empty."
    ),
];

/// A preset: name, description, the values that differ from the default.
type Preset = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// The named presets.
const PRESETS: &[Preset] = &[
    (
        "standard",
        "The Carcassonne Plus (second edition) rules: every variant at its default.",
        &[],
    ),
    (
        "first_edition",
        "The first edition's scoring: 2-tile cities score 2, farmers score city by city \
         (4 per city), a tile that fits nowhere goes back into the pile.",
        &[
            ("small_city_points", "2"),
            ("field_scoring", "per_city"),
            ("unplaceable_tile", "reshuffled"),
        ],
    ),
    (
        "tournament",
        "Fewer swings of luck: a tile that fits nowhere goes back into the pile, a flier \
         may decline to land, robbers left on the track earn 3.",
        &[
            ("unplaceable_tile", "reshuffled"),
            ("flier_landing", "optional"),
            ("robbers_end_bonus_3", "on"),
        ],
    ),
    (
        "tiles_only",
        "The expansions' tiles without their extra figures (big follower, builder, pig, \
         mayor, wagon, barn).",
        &[
            ("big_follower", "off"),
            ("builder", "off"),
            ("pig", "off"),
            ("mayor", "off"),
            ("wagon", "off"),
            ("barn", "off"),
        ],
    ),
];

fn variant(name: &str) -> Result<&'static Variant, RuleError> {
    VARIANTS
        .iter()
        .find(|v| v.name == name)
        .ok_or_else(|| RuleError::UnknownRule(name.to_string()))
}

impl HouseRules {
    /// The standard rules (every variant at its default).
    pub fn standard() -> HouseRules {
        HouseRules::default()
    }

    /// Whether every variant is at its default.
    pub fn is_standard(&self) -> bool {
        *self == HouseRules::default()
    }

    /// The rules of a named preset.
    pub fn preset(name: &str) -> Result<HouseRules, RuleError> {
        let (_, _, values) = PRESETS
            .iter()
            .find(|(n, _, _)| *n == name)
            .ok_or_else(|| RuleError::UnknownPreset(name.to_string()))?;
        let mut r = HouseRules::default();
        for (k, v) in values.iter() {
            r.set(k, v)?;
        }
        Ok(r)
    }

    /// A preset (or the standard rules), then the given values on top of it.
    pub fn from_preset_and_values(
        preset: Option<&str>,
        values: &RuleValues,
    ) -> Result<HouseRules, RuleError> {
        let mut r = match preset {
            Some(p) => HouseRules::preset(p)?,
            None => HouseRules::default(),
        };
        for (k, v) in values {
            r.set(k, v)?;
        }
        Ok(r)
    }

    /// Reads the wire form: every name must be a variant and every value one of its
    /// values; variants not named keep their default.
    pub fn from_values(values: &RuleValues) -> Result<HouseRules, RuleError> {
        HouseRules::from_preset_and_values(None, values)
    }

    /// The wire form: the variants whose value differs from the default.
    pub fn to_values(&self) -> RuleValues {
        let default = HouseRules::default();
        VARIANTS
            .iter()
            .filter(|v| (v.get)(self) != (v.get)(&default))
            .map(|v| (v.name.to_string(), (v.get)(self).to_string()))
            .collect()
    }

    /// The value of a variant by name.
    pub fn get(&self, name: &str) -> Result<&'static str, RuleError> {
        Ok((variant(name)?.get)(self))
    }

    /// Sets a variant by name.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), RuleError> {
        let v = variant(name)?;
        if (v.set)(self, value) {
            Ok(())
        } else {
            Err(RuleError::BadValue {
                rule: name.to_string(),
                value: value.to_string(),
                allowed: v.values.join(", "),
            })
        }
    }
}

impl TryFrom<RuleValues> for HouseRules {
    type Error = RuleError;
    fn try_from(values: RuleValues) -> Result<HouseRules, RuleError> {
        HouseRules::from_values(&values)
    }
}

impl From<HouseRules> for RuleValues {
    fn from(rules: HouseRules) -> RuleValues {
        rules.to_values()
    }
}

/// One variant as the catalog describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RuleVariant {
    /// Stable snake_case id.
    pub name: String,
    /// The expansion the variant belongs to (its id), none for the base game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expansion: Option<String>,
    /// What the variant changes (English).
    pub description: String,
    /// Every allowed value, the default first.
    pub values: Vec<String>,
    /// The value of the standard rules.
    pub default: String,
}

/// A named set of variant values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RulePreset {
    /// Stable snake_case id.
    pub name: String,
    /// What the preset is for (English).
    pub description: String,
    /// The values that differ from the default (variant name → value).
    pub rules: BTreeMap<String, String>,
}

/// Every variant and every preset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RuleCatalog {
    pub variants: Vec<RuleVariant>,
    pub presets: Vec<RulePreset>,
}

/// The catalog of house rules: every variant with its values and default, every preset.
pub fn rule_catalog() -> RuleCatalog {
    let default = HouseRules::default();
    RuleCatalog {
        variants: VARIANTS
            .iter()
            .map(|v| RuleVariant {
                name: v.name.to_string(),
                expansion: v.expansion.map(str::to_string),
                description: v.description.to_string(),
                values: v.values.iter().map(|s| s.to_string()).collect(),
                default: (v.get)(&default).to_string(),
            })
            .collect(),
        presets: PRESETS
            .iter()
            .map(|(n, d, vals)| RulePreset {
                name: n.to_string(),
                description: d.to_string(),
                rules: vals
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_of_every_variant_round_trips() {
        for v in rule_catalog().variants {
            assert_eq!(
                v.values[0], v.default,
                "{}: the default comes first",
                v.name
            );
            for val in &v.values {
                let mut r = HouseRules::default();
                r.set(&v.name, val).unwrap();
                assert_eq!(r.get(&v.name).unwrap(), val);
                assert_eq!(HouseRules::from_values(&r.to_values()).unwrap(), r);
                assert_eq!(r.to_values().is_empty(), *val == v.default);
            }
        }
    }

    #[test]
    fn the_serde_form_is_the_map_of_values_that_differ() {
        let mut r = HouseRules::default();
        r.set("abbot_completed_points", "7").unwrap();
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(json, r#"{"abbot_completed_points":"7"}"#);
        assert_eq!(serde_json::from_str::<HouseRules>(&json).unwrap(), r);
        assert_eq!(serde_json::to_string(&HouseRules::default()).unwrap(), "{}");
        let bad = serde_json::from_str::<HouseRules>(r#"{"pig":"maybe"}"#).unwrap_err();
        assert!(bad.to_string().contains("house rule pig"), "{bad}");
    }

    #[test]
    fn unknown_names_values_and_presets_are_typed_errors() {
        let mut r = HouseRules::default();
        assert_eq!(
            r.set("no_such_rule", "on"),
            Err(RuleError::UnknownRule("no_such_rule".into()))
        );
        assert!(matches!(
            r.set("field_scoring", "per_county"),
            Err(RuleError::BadValue { .. })
        ));
        assert_eq!(
            HouseRules::preset("chaos"),
            Err(RuleError::UnknownPreset("chaos".into()))
        );
        assert!(r.is_standard());
    }

    #[test]
    fn presets_name_only_known_variants_and_values() {
        for p in rule_catalog().presets {
            let r = HouseRules::preset(&p.name).unwrap();
            assert_eq!(r.to_values(), p.rules, "{}", p.name);
        }
        assert!(HouseRules::preset("standard").unwrap().is_standard());
    }
}
