//! The Abbot: a special follower for monasteries and gardens, taken back instead of
//! placing a figure (scoring its feature at once as at the end of the game).

use super::prelude::*;
use crate::rules::AbbotCompleted;

/// House rule `abbot_completed_points = 7`: what a completed monastery or garden with an
/// abbot pays.
pub const ABBOT_COMPLETED_SEVEN: i32 = 7;

/// The Abbot's share of final scoring, read from one of its effects: the points a garden
/// paid its owner (`(player, points)` per owner).
pub(crate) fn end_scoring_points(e: &Effect) -> Vec<(u8, i32)> {
    match e {
        Effect::FeatureScored {
            feature: FeatureKind::Garden,
            points,
            players,
            ..
        } => players.iter().map(|p| (*p, *points)).collect(),
        _ => Vec::new(),
    }
}

impl Table {
    /// A completed monastery or garden's value (`value` by the standard rules): with the
    /// house rule `abbot_completed_points = 7`, 7 when an abbot stands in it.
    pub(crate) fn abbot_completed_value(&self, seg: u16, value: i32) -> i32 {
        let abbot = self
            .board
            .figures
            .iter()
            .any(|f| f.kind == FigureKind::Abbot && f.seg == seg);
        if abbot && self.rules.abbot_completed == AbbotCompleted::Seven {
            ABBOT_COMPLETED_SEVEN
        } else {
            value
        }
    }

    /// The player's abbot on an incomplete monastery or garden, if any (index into the
    /// board's figures).
    pub(crate) fn returnable_abbot(&self, player: u8) -> Option<usize> {
        self.board.figures.iter().position(|f| {
            f.owner == player && f.kind == FigureKind::Abbot && !self.board.is_complete(f.seg)
        })
    }

    /// Takes the player's abbot back from an incomplete monastery or garden, scoring it
    /// at once; the turn goes on with the awards (the stage returned).
    pub(crate) fn return_abbot(
        &mut self,
        player: u8,
        sink: &mut impl EffectSink,
    ) -> Result<Stage, PlayError> {
        let i = self
            .returnable_abbot(player)
            .ok_or(PlayError::NoAbbotToReturn)?;
        let f = self.board.figures[i];
        let p = self.board.tiles()[self.board.seg_tile(f.seg)].pos;
        let kind = self.board.seg_kind(f.seg);
        let value = expansions::final_value(kind, 1 + self.board.surrounding_tiles(p), 0, 0, 0);
        self.new_scoring_round();
        self.after_awards = Stage::Ferries;
        let _ = self.award(f.seg, kind, value, 0, false, 3000, sink);
        self.return_figures(f.seg, sink);
        Ok(Stage::Awards)
    }
}

/// The garden, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    w.extra_if(tile, FeatureKind::Garden, "garden");
}

/// The Abbot's decision: in the figure phase, take the abbot back.
pub(crate) struct Abbot;

impl Hooks for Abbot {
    /// The abbot.
    fn figures(
        &self,
        set: ExpansionSet,
        _rules: &HouseRules,
        supply: &mut [u8; FigureKind::COUNT],
    ) {
        if set.contains(Expansion::Abbot) {
            supply[FigureKind::Abbot as usize] = 1;
        }
    }

    /// A completed monastery or garden with an abbot in it (house rule
    /// `abbot_completed_points`).
    #[inline]
    fn completed_value(
        &self,
        t: &Table,
        root: u16,
        kind: FeatureKind,
        _tiles: u32,
        value: i32,
    ) -> i32 {
        if kind.is_cloister() {
            t.abbot_completed_value(root, value)
        } else {
            value
        }
    }
}

impl Decisions for Abbot {
    const PHASES: &'static [Phase] = &[Phase::PlaceFigure];

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        if t.phase == Phase::PlaceFigure && t.returnable_abbot(t.current).is_some() {
            out.push(Action::ReturnAbbot);
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        match (t.phase, action) {
            (Phase::PlaceFigure, Action::ReturnAbbot) => Some(
                t.return_abbot(player, sink)
                    .map(|next| (Done::AsPosted, Some(next))),
            ),
            _ => None,
        }
    }
}
