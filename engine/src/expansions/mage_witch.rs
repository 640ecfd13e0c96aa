//! Mage & Witch: a magic symbol moves the mage or the witch onto an incomplete road or
//! city; the mage adds a point per tile, the witch halves the value; a scored feature sets
//! its magic figure aside.

use super::prelude::*;
use crate::rules::MagicMeeting;

pub use crate::figures::MagicFigure;

/// Mage & Witch: a road's or city's value with the mage (+1 per tile) and/or the witch
/// (halved, rounded up) in it.
pub fn magic_adjusted(value: i32, tiles: u32, mage: bool, witch: bool) -> i32 {
    let mut v = value;
    if mage {
        v += tiles as i32;
    }
    if witch {
        v -= v / 2;
    }
    v
}

/// The state of Mage & Witch, held by a game with this expansion only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct MagicState {
    /// The segment each stands on (mage, witch), `None` when set aside.
    at: [Option<u16>; 2],
    /// The placed tile's magic symbol still asks for a move.
    symbol_pending: bool,
}

impl Table {
    /// Where the mage and the witch stand (mage, witch).
    fn magic(&self) -> [Option<u16>; 2] {
        self.mage_witch.map_or([None, None], |m| m.at)
    }

    fn magic_symbol_pending(&self) -> bool {
        self.mage_witch.is_some_and(|m| m.symbol_pending)
    }

    fn set_magic(&mut self, f: MagicFigure, seg: Option<u16>) {
        if let Some(m) = self.mage_witch.as_mut() {
            m.at[f.index()] = seg;
        }
    }

    /// Hook *tile placed* (Mage & Witch): a magic symbol on the tile asks for a move.
    pub(crate) fn note_magic_symbol(&mut self, symbols: u8) {
        if let Some(m) = self.mage_witch.as_mut() {
            m.symbol_pending = symbols & crate::catalog::symbol::MAGIC != 0;
        }
    }

    /// The magic symbol's move is dropped (the turn part ended before it).
    pub(crate) fn drop_magic_symbol(&mut self) {
        if let Some(m) = self.mage_witch.as_mut() {
            m.symbol_pending = false;
        }
    }

    /// Stage *magic*: the magic symbol or a meeting of the mage and the witch asks for a
    /// move now. Returns whether that move is pending.
    #[inline]
    pub(crate) fn ask_magic_move(&mut self) -> bool {
        if self.magic_move_due() {
            self.phase = Phase::MoveMagic;
            return true;
        }
        false
    }

    /// Stage *ferries*: a ferry joined the mage's and the witch's roads, so one of them
    /// moves first, and the ferries come after. Returns whether that move is pending.
    #[inline]
    pub(crate) fn ask_magic_move_before_ferries(&mut self) -> bool {
        if self.magic_meeting() {
            self.after_magic = Stage::Ferries;
            self.phase = Phase::MoveMagic;
            return true;
        }
        false
    }

    /// Whether the magic symbol or a meeting of the mage and the witch asks for a move now.
    fn magic_move_due(&mut self) -> bool {
        if self.magic_symbol_pending() {
            if self.has_magic_move() || self.magic().iter().any(|m| m.is_some()) {
                return true;
            }
            self.drop_magic_symbol();
        }
        self.magic_meeting()
    }

    /// The mage and the witch stand in one feature.
    pub fn magic_meeting(&self) -> bool {
        match self.magic() {
            [Some(a), Some(b)] => self.board.find(a) == self.board.find(b),
            _ => false,
        }
    }

    /// House rule `magic_meeting = remove`: the mage and the witch meet (and no magic
    /// symbol's move is pending), so one of them is set aside rather than moved.
    fn meeting_removes(&self) -> bool {
        self.rules.magic_meeting == MagicMeeting::Remove
            && !self.magic_symbol_pending()
            && self.magic_meeting()
    }

    /// Where the mage and the witch stand (segment), `None` when set aside.
    pub fn magic_figure(&self, f: MagicFigure) -> Option<u16> {
        self.magic()[f.index()]
    }

    /// May magic figure `f` move onto segment `seg`? (A road or city segment of an
    /// incomplete feature without the other figure, and not the figure's own feature; at a
    /// meeting only a figure on the board moves.)
    pub(crate) fn magic_dest_ok(&self, f: MagicFigure, seg: u16) -> bool {
        if !matches!(
            self.board.seg_kind(seg),
            FeatureKind::Road | FeatureKind::City
        ) {
            return false;
        }
        let own = self.magic()[f.index()].map(|s| self.board.find(s));
        if (own.is_none() && self.magic_meeting()) || self.meeting_removes() {
            return false;
        }
        let other = self.magic()[f.other().index()].map(|s| self.board.find(s));
        let root = self.board.find(seg);
        self.board.open_sides(seg) != 0 && Some(root) != own && Some(root) != other
    }

    /// Is any magic move possible? (Without building the list.)
    pub(crate) fn has_magic_move(&self) -> bool {
        MagicFigure::BOTH.into_iter().any(|f| {
            self.board.tiles().iter().enumerate().any(|(j, pt)| {
                (0..pt.tile_type().features.len())
                    .any(|i| self.magic_dest_ok(f, self.board.seg(j, i)))
            })
        })
    }

    /// Legal magic moves: (figure, cell, spot name, segment). A destination is a road or
    /// city segment of an incomplete feature without the other figure; a figure on the
    /// board must change feature.
    pub fn magic_moves(&self) -> Vec<(MagicFigure, Pos, String, u16)> {
        let mut out = Vec::new();
        let meeting = self.magic_meeting();
        if self.meeting_removes() {
            return out;
        }
        for f in MagicFigure::BOTH {
            // at a meeting, only a figure of the shared feature moves (either one)
            let own = self.magic()[f.index()].map(|s| self.board.find(s));
            let other = self.magic()[f.other().index()].map(|s| self.board.find(s));
            if meeting && own.is_none() {
                continue;
            }
            for (j, pt) in self.board.tiles().iter().enumerate() {
                let tt = pt.tile_type();
                for (i, feat) in tt.features.iter().enumerate() {
                    if !matches!(feat.kind, FeatureKind::Road | FeatureKind::City) {
                        continue;
                    }
                    let seg = self.board.seg(j, i);
                    let root = self.board.find(seg);
                    if self.board.open_sides(seg) == 0 || Some(root) == own || Some(root) == other {
                        continue;
                    }
                    out.push((
                        f,
                        pt.pos,
                        tt.spot_name(tt.canonical_spot(pt.rotation, i)),
                        seg,
                    ));
                }
            }
        }
        out
    }

    /// Figures that may be set aside now (only when no move is legal).
    pub fn magic_removals(&self) -> Vec<MagicFigure> {
        if self.has_magic_move() {
            return Vec::new();
        }
        let meeting = self.magic_meeting();
        MagicFigure::BOTH
            .into_iter()
            .filter(|f| self.magic()[f.index()].is_some())
            .filter(|_| meeting || self.magic_symbol_pending())
            .collect()
    }

    /// Moves magic figure `f` onto the feature at `spot` of `pos`: the segment, and the
    /// stage where the turn goes on.
    pub(crate) fn move_magic(
        &mut self,
        f: MagicFigure,
        pos: Pos,
        spot: &str,
    ) -> Result<(u16, Stage), PlayError> {
        let seg = self.feature_seg_at(pos, spot)?;
        if !self.magic_dest_ok(f, seg) {
            return Err(PlayError::MagicNotAllowed);
        }
        self.set_magic(f, Some(seg));
        self.drop_magic_symbol();
        Ok((seg, Stage::Magic))
    }

    /// Sets magic figure `f` aside (only when no move is legal); returns the stage where
    /// the turn goes on.
    pub(crate) fn remove_magic(&mut self, f: MagicFigure) -> Result<Stage, PlayError> {
        if !self.magic_removals().contains(&f) {
            return Err(PlayError::MagicNotAllowed);
        }
        self.set_magic(f, None);
        self.drop_magic_symbol();
        Ok(Stage::Magic)
    }

    /// The value of a road or city with the mage (+1 per tile) or the witch (halved,
    /// rounded up) in it.
    pub(crate) fn magic_value(&self, root: u16, value: i32, tiles: u32) -> i32 {
        let root = self.board.find(root);
        let here =
            |f: MagicFigure| self.magic()[f.index()].is_some_and(|s| self.board.find(s) == root);
        magic_adjusted(
            value,
            tiles,
            here(MagicFigure::Mage),
            here(MagicFigure::Witch),
        )
    }

    /// A feature scored during the game sets its magic figure aside.
    pub(crate) fn set_magic_aside(&mut self, root: u16, sink: &mut impl EffectSink) {
        let root = self.board.find(root);
        for f in MagicFigure::BOTH {
            if self.magic()[f.index()].is_some_and(|s| self.board.find(s) == root) {
                self.set_magic(f, None);
                if sink.enabled() {
                    sink.push(Effect::MagicSetAside { figure: f });
                }
            }
        }
    }
}

/// The magic portal, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.symbols & crate::catalog::symbol::MAGIC != 0 {
        w.extra("magic-portal");
    }
}

/// Mage & Witch's decision: move the mage or the witch, or set one aside.
pub(crate) struct MageWitch;

impl Hooks for MageWitch {
    /// A road or city with the mage or the witch in it.
    #[inline]
    fn completed_value(
        &self,
        t: &Table,
        root: u16,
        kind: FeatureKind,
        tiles: u32,
        value: i32,
    ) -> i32 {
        if matches!(kind, FeatureKind::Road | FeatureKind::City) {
            t.magic_value(root, value, tiles)
        } else {
            value
        }
    }

    /// The mage and the witch beside the board.
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::MageWitch) {
            t.mage_witch = Some(MagicState::default());
        }
    }
}

impl Decisions for MageWitch {
    const PHASES: &'static [Phase] = &[Phase::MoveMagic];

    /// The active player left before the magic move: on to scoring.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        _deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        if t.phase != Phase::MoveMagic {
            return None;
        }
        Some((player == t.current).then(|| t.figure_given_up()))
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        if t.phase == Phase::MoveMagic {
            out.extend(
                t.magic_moves()
                    .into_iter()
                    .map(|(figure, p, spot, _)| Action::MoveMagic {
                        figure,
                        x: p.x,
                        y: p.y,
                        spot,
                    }),
            );
            out.extend(
                t.magic_removals()
                    .into_iter()
                    .map(|figure| Action::RemoveMagic { figure }),
            );
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        _player: u8,
        action: &Action,
        _sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        Some(match (t.phase, action) {
            (Phase::MoveMagic, Action::MoveMagic { figure, x, y, spot }) => t
                .move_magic(*figure, Pos::new(*x, *y), spot)
                .map(|(seg, next)| (Done::Spot(seg), Some(next))),
            (Phase::MoveMagic, Action::RemoveMagic { figure }) => t
                .remove_magic(*figure)
                .map(|next| (Done::AsPosted, Some(next))),
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::game::GameConfig;

    #[test]
    fn mw5_nowhere_to_go_sets_a_figure_aside() {
        // the mage on T0's road, the witch on T0's city, and no other road or city
        let (mut g, _) = Game::new(&GameConfig {
            players: 2,
            expansions: vec![Expansion::MageWitch],
            tile_order: Some(vec!["mw/05-cfcf".into()]),
            seed: 1,
            rules: Default::default(),
        })
        .expect("set-up");
        let road = g.board.seg(0, 1);
        let city = g.board.seg(0, 0);
        g.mage_witch = Some(MagicState {
            at: [Some(road), Some(city)],
            symbol_pending: true,
        });
        // a moved figure must change feature and may not join the other
        assert!(g.magic_moves().is_empty());
        assert_eq!(
            g.magic_removals(),
            vec![MagicFigure::Mage, MagicFigure::Witch]
        );
        let mut fx = Vec::new();
        let next = g.remove_magic(MagicFigure::Witch).expect("set aside");
        g.run(next, &mut fx);
        assert_eq!(g.magic(), [Some(road), None]);
        assert!(!g.magic_symbol_pending());
    }
}
