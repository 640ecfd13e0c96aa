//! The Pig Herd (the Games Quarterly 11 promotional tile): one tile that is all field,
//! with a herd of pigs drawn on it (`ph/01-ffff` in the catalog), shuffled into the pile
//! when the expansion is in play. The herd is no figure: it stays on its tile, and the
//! field that holds the tile holds the herd.
//!
//! # Rules as adopted
//!
//! At the end of the game, a player who wins a completed city's farmers' points gets 1
//! more for that city when one of the fields supplying it, where that player has a
//! farmer, holds the herd. This is on top of the player's own pig (Traders & Builders),
//! if any. Only final field scoring counts it: barns (Abbey & Mayor) score as before.
//!
//! * Standard field scoring (each field on its own, 3 per completed city it supplies):
//!   the majority holders of the herd's field get 3 + 1 = 4 per completed city, 5 with
//!   their own pig in it. Another field's winners get 3 per city (4 with a pig), even for
//!   a city the herd's field supplies too.
//! * House rule `field_scoring = per_city` (each completed city pays 4 once, to the
//!   players with the most farmers in all the fields supplying it): a winner gets 5 for
//!   the city when one of those fields where they have a farmer holds the herd, 6 with a
//!   pig in one of them.
//!
//! # Worked examples (standard field scoring; `tests/rules_pig_herd.rs` plays them)
//!
//! 1. Red's farmer stands in the herd's field, which supplies one completed city: red
//!    gets 3 + 1 = **4**.
//! 2. The same with red's pig in that field: 3 + 1 (pig) + 1 (herd) = **5**.
//! 3. Blue's farmer stands in a field that supplies a completed city, and the herd is in
//!    another field: blue gets **3**.
//! 4. Red and blue each have one farmer in the herd's field (a tie), which supplies one
//!    completed city: both get **4**.
//! 5. The herd's field supplies two completed cities and red wins it: 2 × (3 + 1) =
//!    **8**.
//!
//! The expansion reaches the scoring through one hook of the registry
//! ([`Hooks::field_city_bonus`]); it keeps no state and asks no decision.

use super::prelude::*;

/// Points per completed city that the herd adds for a winner of its field.
pub const HERD_BONUS_PER_CITY: i32 = 1;

/// The Pig Herd in the registry: a field bonus only (no decision, no state of its own).
pub(crate) struct PigHerd;

impl Hooks for PigHerd {
    fn field_city_bonus(&self, t: &Table, fields: &[u16], _player: u8) -> i32 {
        if !t.expansions.contains(Expansion::PigHerd) {
            return 0;
        }
        match herd_field(&t.board) {
            Some(herd) if fields.iter().any(|&f| t.board.find(f) == herd) => HERD_BONUS_PER_CITY,
            _ => 0,
        }
    }
}

impl Decisions for PigHerd {}

/// The root of the field that holds the herd: the field of the herd's tile, once placed.
pub fn herd_field(board: &Board) -> Option<u16> {
    board.tiles().iter().enumerate().find_map(|(j, pt)| {
        let tt = pt.tile_type();
        if tt.expansion != Some(Expansion::PigHerd) {
            return None;
        }
        let i = tt
            .features
            .iter()
            .position(|f| f.kind == FeatureKind::Field)?;
        Some(board.find(board.seg(j, i)))
    })
}
