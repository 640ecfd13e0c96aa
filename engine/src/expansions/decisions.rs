//! The expansions' decisions: each expansion that asks players something lists the
//! options of its own phases (and those it adds to the figure phase) and applies the one
//! chosen, through [`Decisions`], implemented by a unit struct named after it in its own
//! file. The game's gate (`Game::step`) and `legal_actions` keep the base game's
//! decisions (the tile, a figure or none) and hand every other one to the registry
//! (`registry!` below).
//!
//! Why the hooks work on the [`Table`]: the game owns the table and sits above the
//! expansions (`tests/modules.rs`), so a hook never names the game, like the expansions'
//! other hooks. What only the game can do is handed back to it: how the action is
//! recorded ([`Done`]) and the stage where the turn pipeline goes on (the game runs it).
//! What a player decides (`crate::action`, with the values its variants carry) and how
//! a decision is recorded (`crate::event`) are vocabularies below the expansions, so each
//! expansion's file names its own actions.
//!
//! The registry is one list that `registry!` turns into the calls through the list
//! (no trait objects: each expansion's hook is a static call the compiler can inline, and
//! the effect sink stays generic, so replay builds no effects).

use crate::action::Action;
use crate::board::Board;
use crate::catalog::TileTypeId;
use crate::decision::{Phase, PlayError};
use crate::effect::EffectSink;
use crate::event::Declined;
use crate::expansion::ExpansionSet;
use crate::figures::FigureKind;
use crate::geometry::{Pos, Spot};

use super::stages::{Hooks, Stage};
use super::table::Table;
use super::{abbey_mayor, abbot, crop_circles, ferries, flier, gold_mines, inns_cathedrals};
use super::{mage_witch, messages, pig_herd, river, robbers, score_track, traders_builders};

/// What an accepted action did, beyond the action itself: how the gate records it (see
/// `Game::play_into`) without the replay path allocating.
pub(crate) enum Done {
    /// Recorded as it was posted.
    AsPosted,
    /// The drawn tile was placed (the event names it).
    Tile(TileTypeId),
    /// The action's spot names the feature of this segment: recorded by its canonical
    /// name.
    Spot(u16),
    /// A `pass`, declining this.
    Declined(Declined),
    /// Recorded as this action (the option it picked, in the engine's own names).
    As(Action),
}

/// An expansion's decision, applied: how it is recorded, and the stage where the turn
/// goes on (`None`: the hook has set the next decision itself).
pub(crate) type Decided = (Done, Option<Stage>);

/// An expansion's decisions: the options it offers and what a chosen one does.
pub(crate) trait Decisions {
    /// The phases where it has decisions: its own, and the figure phase when it adds
    /// options there. The registry asks it in these phases only.
    const PHASES: &'static [Phase] = &[];

    /// [`Decisions::PHASES`] as a set of bits (`1 << phase`), for the registry's checks.
    const PHASE_BITS: u32 = phase_bits(Self::PHASES);

    /// Appends the options this expansion offers in the pending phase: every option of
    /// its own phases, and in the figure phase the options it adds there (listed after
    /// the base game's figures and before the pass).
    fn options(&self, _t: &Table, _out: &mut Vec<Action>) {}

    /// The player whose decision is pending in one of this expansion's phases, when it is
    /// not the active player's (`None`: the active player decides, or not its phase).
    fn decider(&self, _t: &Table) -> Option<u8> {
        None
    }

    /// Applies `action` by `player` when, in the pending phase, it is one of this
    /// expansion's decisions (`None` when it is not), or refuses it with the table
    /// untouched. An expansion's actions are claimed whether or not it is in play: its
    /// own checks refuse them then.
    fn apply(
        &self,
        _t: &mut Table,
        _player: u8,
        _action: &Action,
        _sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        None
    }

    /// May the current player put a figure of kind `k` on segment `seg` of `board` (with
    /// the tile just placed)? Answered by the expansion whose figure `k` is placed by rules
    /// other than a follower's (`None`: not such a figure of this expansion; the game
    /// checks followers itself). An expansion's figures are claimed whether or not it is in
    /// play: its own checks refuse them then.
    fn figure_check(
        &self,
        _t: &Table,
        _board: &Board,
        _seg: u16,
        _k: FigureKind,
    ) -> Option<Result<(), PlayError>> {
        None
    }

    /// A player leaves the game: what this expansion holds for them goes (called for every
    /// expansion, in or out of play, before [`Decisions::player_left`]).
    fn player_leaves(&self, _t: &mut Table, _player: u8) {}

    /// A player has left the game in one of this expansion's phases and the others play
    /// on (`deciding`: the pending decision was theirs): the stage where the turn goes on,
    /// `Some(None)` when the pending decision stands (or the hook has set the next one),
    /// `None` when the pending phase is not one of this expansion's own.
    fn player_left(
        &self,
        _t: &mut Table,
        _player: u8,
        _deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        None
    }

    /// Hands `f` each corner of the tile `ti` just placed on `board` (a trial placement)
    /// where this expansion lets the current player put a figure, with that figure.
    fn corner_figures(
        &self,
        _t: &Table,
        _board: &Board,
        _ti: usize,
        _f: &mut impl FnMut(Spot, FigureKind),
    ) {
    }
}

/// The phases as a set of bits (`1 << phase`).
const fn phase_bits(phases: &[Phase]) -> u32 {
    // every phase has a bit (`GameOver` is the last)
    assert!((Phase::GameOver as u32) < u32::BITS);
    let mut bits = 0;
    let mut i = 0;
    while i < phases.len() {
        bits |= 1 << phases[i] as u32;
        i += 1;
    }
    bits
}

/// The registry: `Table::expansion_options`, `Table::expansion_decider` and
/// `Table::apply_expansion_decision` go through the listed expansions in order, each
/// asked only in its `PHASES` (a base game's tile costs one test of a bit).
macro_rules! registry {
    ($($e:path),* $(,)?) => {
        /// The number of expansions (and shared modules) in the registry.
        pub(crate) const REGISTERED: usize = [$(stringify!($e)),*].len();

        /// The number of expansions that keep something face down.
        pub(crate) const HIDDEN: usize = 0 $(+ <$e as Hooks>::HIDDEN as usize)*;

        // an expansion without phases of its own (Traders & Builders: figures only) has no
        // bits, so its test is a constant `false`
        #[allow(clippy::bad_bit_mask)]
        impl Table {
            /// The pending phase as a bit, `0` when no expansion has decisions in it (the
            /// check is inlined, so that a base game's tile costs no call).
            #[inline]
            fn expansion_phase_bit(&self) -> u32 {
                const ANY: u32 = 0 $(| <$e as Decisions>::PHASE_BITS)*;
                (1 << self.phase as u32) & ANY
            }

            /// The expansions' options in the pending phase, appended to `out`.
            pub(crate) fn expansion_options(&self, out: &mut Vec<Action>) {
                let bit = self.expansion_phase_bit();
                $(if <$e as Decisions>::PHASE_BITS & bit != 0 {
                    $e.options(self, out);
                })*
            }

            /// The player whose decision is pending, when an expansion's phase asks
            /// another player than the active one.
            #[inline]
            pub(crate) fn expansion_decider(&self) -> Option<u8> {
                let bit = self.expansion_phase_bit();
                if bit == 0 {
                    return None;
                }
                $(if <$e as Decisions>::PHASE_BITS & bit != 0 {
                    if let Some(p) = $e.decider(self) {
                        return Some(p);
                    }
                })*
                None
            }

            /// `action` applied by the expansion whose decision it is (`None` when it
            /// is no expansion's).
            #[inline]
            pub(crate) fn apply_expansion_decision(
                &mut self,
                player: u8,
                action: &Action,
                sink: &mut impl EffectSink,
            ) -> Option<Result<Decided, PlayError>> {
                let bit = self.expansion_phase_bit();
                if bit == 0 {
                    return None;
                }
                self.apply_expansion_decision_in(bit, player, action, sink)
            }

            /// [`Table::apply_expansion_decision`] in a phase with the expansions' `bit`.
            fn apply_expansion_decision_in(
                &mut self,
                bit: u32,
                player: u8,
                action: &Action,
                sink: &mut impl EffectSink,
            ) -> Option<Result<Decided, PlayError>> {
                $(if <$e as Decisions>::PHASE_BITS & bit != 0 {
                    if let Some(r) = $e.apply(self, player, action, sink) {
                        return Some(r);
                    }
                })*
                None
            }

            /// The tiles the expansions in `set` bring onto the board from beside the pile
            /// for `players` players, and their segments.
            pub(crate) fn tiles_beside_pile(set: ExpansionSet, players: u8) -> (usize, usize) {
                let mut beside = (0, 0);
                $(
                    let (tiles, segments) = $e.tiles_beside_pile(set, players);
                    beside.0 += tiles;
                    beside.1 += segments;
                )*
                beside
            }

            /// The value of the completed feature of `root` with the expansions' figures
            /// in it (`value` without them).
            #[inline]
            pub(crate) fn expansions_completed_value(
                &self,
                root: u16,
                kind: crate::catalog::FeatureKind,
                tiles: u32,
                value: i32,
            ) -> i32 {
                let v = value;
                $(let v = $e.completed_value(self, root, kind, tiles, v);)*
                v
            }

            /// The points per completed city the expansions add for `player`, a winner
            /// of a city's farmers' points with a farmer in `fields` (roots).
            pub(crate) fn field_city_bonus(&self, fields: &[u16], player: u8) -> i32 {
                0 $(+ $e.field_city_bonus(self, fields, player))*
            }

            /// The expansions' segments to check when scoring a turn part.
            pub(crate) fn segments_to_score(&mut self, segs: &mut [u16], ns: &mut usize) {
                $($e.segments_to_score(self, segs, ns);)*
            }

            /// The completed features to score, in order.
            pub(crate) fn features_to_score(&mut self, cands: &[(u8, Pos, u16)]) {
                $($e.features_to_score(self, cands);)*
            }

            /// Whether an expansion frees the figure `i` of a scored feature.
            #[inline]
            pub(crate) fn figure_freed(
                &mut self,
                i: usize,
                freed: &mut Vec<(u8, Pos)>,
                sink: &mut impl EffectSink,
            ) -> bool {
                $(if $e.figure_freed(self, i, freed, sink) {
                    return true;
                })*
                false
            }

            /// The figures freed by a scoring, in turn order.
            pub(crate) fn figures_freed(&mut self, freed: Vec<(u8, Pos)>) {
                $($e.figures_freed(self, &freed);)*
            }

            /// The game ends: the expansions settle what is under way.
            pub(crate) fn game_ends(&mut self, sink: &mut impl EffectSink) {
                $($e.game_ends(self, sink);)*
            }

            /// The placements of the tile `tt` when an expansion places it by rules of its
            /// own (appended to `out`; `false`: the board's frontier decides).
            #[inline]
            pub(crate) fn expansion_placements(
                &self,
                tt: &crate::catalog::TileType,
                out: &mut Vec<(Pos, crate::geometry::Rotation)>,
            ) -> bool {
                $(if $e.placements(self, tt, out) {
                    return true;
                })*
                false
            }

            /// The expansions' rules for placing the tile `tt` (its edges fit).
            #[inline]
            pub(crate) fn expansion_tile_check(
                &self,
                tt: &crate::catalog::TileType,
                pos: Pos,
                r: crate::geometry::Rotation,
            ) -> Result<(), &'static str> {
                $($e.tile_check(self, tt, pos, r)?;)*
                Ok(())
            }

            /// The tile `tt` is about to be placed (checked).
            #[inline]
            pub(crate) fn tile_placing(
                &mut self,
                tt: &crate::catalog::TileType,
                pos: Pos,
                r: crate::geometry::Rotation,
            ) {
                $($e.tile_placing(self, tt, pos, r);)*
            }

            /// What each expansion keeps face down, in the registry's order.
            pub(crate) fn hidden_snapshot(&self) -> [Vec<u8>; REGISTERED] {
                [$($e.hidden(self).to_vec()),*]
            }

            /// Whether going from `before` to `after` (two snapshots) read something face
            /// down.
            #[allow(unused_assignments)]
            pub(crate) fn hidden_read(
                before: &[Vec<u8>; REGISTERED],
                after: &[Vec<u8>; REGISTERED],
            ) -> bool {
                let mut k = 0;
                $(
                    if $e.hidden_read(&before[k], &after[k]) {
                        return true;
                    }
                    k += 1;
                )*
                false
            }

            /// How far what each expansion that keeps something face down has been read.
            #[inline]
            #[allow(unused_assignments, clippy::reversed_empty_ranges)]
            pub(crate) fn hidden_marks(&self) -> [u64; HIDDEN] {
                let mut marks = [0; HIDDEN];
                let mut k = 0;
                $(if <$e as Hooks>::HIDDEN {
                    marks[k] = $e.hidden_mark(self);
                    k += 1;
                })*
                marks
            }

            /// Rearranges with `order` what the expansions keep face down and nobody has
            /// seen.
            pub(crate) fn reorder_unseen(&mut self, mut order: impl FnMut(&mut [u8])) {
                $($e.reorder_unseen(self, &mut order);)*
            }

            /// Gives `player` points (in award batch `batch`): to the score, unless an
            /// expansion takes them (the score track's award queue).
            #[inline]
            pub(crate) fn grant(
                &mut self,
                player: u8,
                points: i32,
                batch: u16,
                sink: &mut impl EffectSink,
            ) {
                $(if $e.points_granted(self, player, points, batch, sink) {
                    return;
                })*
                self.players[player as usize].score += points;
            }

            /// Memory the expansions' states hold on the heap.
            pub(crate) fn expansions_heap_bytes(&self) -> usize {
                0 $(+ $e.heap_bytes(self))*
            }

            /// The figures the expansions in `set` give each player, put into `supply`.
            pub(crate) fn expansions_figures(
                set: ExpansionSet,
                rules: &crate::rules::HouseRules,
                supply: &mut [u8; FigureKind::COUNT],
            ) {
                $($e.figures(set, rules, supply);)*
            }

            /// Most players a game with `set` seats, when an expansion in it brings more
            /// colours.
            pub(crate) fn expansions_max_players(set: ExpansionSet) -> Option<u8> {
                let mut max = None;
                $(if let Some(n) = $e.max_players(set) {
                    max = Some(max.map_or(n, |m: u8| m.max(n)));
                })*
                max
            }

            /// A new game: the expansions in play set up their state.
            pub(crate) fn set_up_expansions(&mut self) {
                $($e.set_up(self);)*
            }

            /// Hook *before the draw*: whether an expansion asks the active player
            /// something before the draw (and has set that decision).
            #[inline]
            pub(crate) fn ask_before_draw(&mut self) -> bool {
                $(if $e.ask_before_draw(self) {
                    return true;
                })*
                false
            }

            /// Hook *scoring begins*: the scoring of a turn part begins.
            pub(crate) fn scoring_begins(&mut self) {
                $($e.scoring_begins(self);)*
            }

            /// Hook *another part*: whether the active player plays another turn part
            /// (the first expansion to grant one gives it).
            pub(crate) fn another_part(&mut self) -> bool {
                $(if $e.another_part(self) {
                    return true;
                })*
                false
            }

            /// Hook *turn over*: the active player's turn is over.
            pub(crate) fn turn_over(&mut self) {
                $($e.turn_over(self);)*
            }

            /// Hook *turn given up*: the active player left before placing their tile.
            pub(crate) fn turn_given_up(&mut self) {
                $($e.turn_given_up(self);)*
            }

            /// Hook *part cut short*: no other turn part follows this one after all.
            pub(crate) fn part_cut_short(&mut self) {
                $($e.part_cut_short(self);)*
            }

            /// Hook *game cut short*: the game ends before its turn is over.
            pub(crate) fn game_cut_short(&mut self) {
                $($e.game_cut_short(self);)*
            }

            /// A player leaves the game: each expansion lets them go.
            pub(crate) fn expansions_player_leaves(&mut self, player: u8) {
                $($e.player_leaves(self, player);)*
            }

            /// A player has left the game and the others play on: where the turn goes on
            /// when the pending phase is an expansion's (`None`: the base game's phase).
            pub(crate) fn expansion_player_left(
                &mut self,
                player: u8,
                deciding: bool,
                sink: &mut impl EffectSink,
            ) -> Option<Option<Stage>> {
                let bit = self.expansion_phase_bit();
                $(if <$e as Decisions>::PHASE_BITS & bit != 0 {
                    if let Some(r) = $e.player_left(self, player, deciding, sink) {
                        return Some(r);
                    }
                })*
                None
            }

            /// The check of a figure that an expansion places by rules of its own (`None`:
            /// a follower, checked by the game).
            #[inline]
            pub(crate) fn expansion_figure_check(
                &self,
                board: &Board,
                seg: u16,
                k: FigureKind,
            ) -> Option<Result<(), PlayError>> {
                $(if let Some(r) = $e.figure_check(self, board, seg, k) {
                    return Some(r);
                })*
                None
            }

            /// The corners of the tile `ti` just placed on `board` (a trial placement)
            /// where the expansions let the current player put a figure, each handed to
            /// `f` with the figure.
            pub(crate) fn expansion_corner_figures(
                &self,
                board: &Board,
                ti: usize,
                mut f: impl FnMut(Spot, FigureKind),
            ) {
                $($e.corner_figures(self, board, ti, &mut f);)*
            }
        }
    };
}

// Every expansion (and the score track that two of them share); those with decisions of
// their own in the order their options in the figure phase are listed (barns, the abbot's
// return, flights). Their phases are disjoint, and in
// the figure phase each claims actions and figures of its own.
registry![
    abbey_mayor::AbbeyMayor,
    abbot::Abbot,
    flier::FlyingMachines,
    gold_mines::GoldMines,
    mage_witch::MageWitch,
    crop_circles::CropCircles,
    ferries::Ferries,
    robbers::Robbers,
    score_track::Track,
    messages::Messages,
    traders_builders::TradersBuilders,
    river::River,
    inns_cathedrals::InnsCathedrals,
    pig_herd::PigHerd,
];
