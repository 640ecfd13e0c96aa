//! The turn's stages and the expansions' hooks into the turn.
//!
//! The base game's stages (start, draw, tile, figure, scoring, next part, final round,
//! end) are run by the game's turn pipeline (`game/turn.rs`). At fixed points it hands
//! over to the stages the expansions add ([`Stage::AFTER_TILE`],
//! [`Stage::AFTER_FIGURE`], [`Stage::AFTER_SCORING`], [`Stage::FINAL_ROUND`]): each of
//! them is run here ([`Table::run_expansion_stage`]) and names the stage that follows it,
//! the last one of a point going back to the base game's. Between stages, the game asks
//! the expansions through [`Hooks`] (reached through the registry, `decisions.rs`): a
//! choice before the draw, the start of a scoring, another part for the active player,
//! the end of a turn or of a part cut short.

use super::table::Table;
use crate::catalog::{FeatureKind, TileType};
use crate::effect::EffectSink;
use crate::expansion::ExpansionSet;
use crate::figures::FigureKind;
use crate::geometry::{Pos, Rotation};
use crate::rules::HouseRules;

/// The stages of a turn part, in the order they run (see `Game::run`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stage {
    // ----- the base game's stages
    /// A new turn part: the expansions' choice before the draw, or on to the draw.
    Start,
    /// Draw the next placeable tile (decision: place it).
    Draw,
    /// The tile was placed: the expansions' stages of a placed tile, then the figure.
    Tile,
    /// The figure (decision: place a figure, return the abbot, fly, or pass).
    Figure,
    /// Scoring of what the tile completed.
    Scoring,
    /// The next part: another part for the same player, the next player, or the final
    /// round.
    NextPart,
    /// The pile is empty: the expansions' final round, then the end.
    FinalRound,
    /// Final scoring and the ranking.
    End,
    // ----- the stages the expansions add
    /// The placed tile's symbols: the magic symbol is noted (Mage & Witch), the robber
    /// symbol starts the robber placement (The Robbers).
    Symbols,
    /// A gold tile's ingots (decision: where the second one goes).
    Gold,
    /// The mage and the witch (decision: move one).
    Magic,
    /// The ferries (decisions: place the new ferry, move ferries).
    Ferries,
    /// The order of the completed features on the score track (decision: the next one).
    ScoringOrder,
    /// The award queue on the score track (decisions: the score figure, the victim).
    Awards,
    /// Freed wagons (decision: where each moves).
    Wagons,
    /// Earned messages (decision: carry one out or take 2 points).
    Messages,
    /// The crop circle of the part's tile (decision: add or remove).
    CropCircle,
    /// The crop-circle round (decision: each player's addition or removal).
    Crop,
    /// The final abbey round begins (or the game ends).
    AbbeyRound,
    /// The next player of the final abbey round (decision: place the abbey).
    FinalAbbey,
}

impl Stage {
    /// The expansions' first stage after a tile is placed (before the figure).
    pub(crate) const AFTER_TILE: Stage = Stage::Symbols;
    /// The expansions' first stage after the figure (before scoring).
    pub(crate) const AFTER_FIGURE: Stage = Stage::Ferries;
    /// The expansions' first stage after scoring (before the next part).
    pub(crate) const AFTER_SCORING: Stage = Stage::ScoringOrder;
    /// The expansions' first stage once the pile is empty (before the end).
    pub(crate) const FINAL_ROUND: Stage = Stage::AbbeyRound;
    /// Where the award queue goes on after scoring.
    pub(crate) const AFTER_AWARDS: Stage = Stage::Wagons;
}

/// An expansion's hooks into the turn, between the stages (each a no-op unless the
/// expansion has something to do there). The registry (`decisions.rs`) calls them for
/// every listed expansion, in its order.
pub(crate) trait Hooks {
    /// Whether it keeps something face down from every player ([`Hooks::hidden`],
    /// [`Hooks::hidden_mark`]).
    const HIDDEN: bool = false;

    /// A new game with `set` for `players` players: the tiles this expansion brings onto
    /// the board from beside the pile, when in play, and their segments (the board keeps
    /// room for them).
    fn tiles_beside_pile(&self, _set: ExpansionSet, _players: u8) -> (usize, usize) {
        (0, 0)
    }

    /// The value of the completed feature of `root` (of `kind`, on `tiles` distinct
    /// tiles) with this expansion's figures in it, `value` without them.
    #[inline]
    fn completed_value(
        &self,
        _t: &Table,
        _root: u16,
        _kind: FeatureKind,
        _tiles: u32,
        value: i32,
    ) -> i32 {
        value
    }

    /// Final field scoring: the points per completed city that this expansion adds for
    /// `player`, who wins a city's farmers' points, when `fields` (roots) are the fields
    /// supplying that city where `player` has a farmer (one field when each field is
    /// scored on its own).
    fn field_city_bonus(&self, _t: &Table, _fields: &[u16], _player: u8) -> i32 {
        0
    }

    /// Before scoring a turn part: segments beyond the placed tile's whose features it may
    /// have completed, added to `segs[..*ns]`.
    fn segments_to_score(&self, _t: &mut Table, _segs: &mut [u16], _ns: &mut usize) {}

    /// The completed features to score (`cands`: order key, smallest position, root), in
    /// the order they are scored.
    fn features_to_score(&self, _t: &mut Table, _cands: &[(u8, Pos, u16)]) {}

    /// The figure `i` of a scored feature leaves it: whether this expansion frees it to
    /// move on by its owner's decision (noted in `freed`, owner and cell) instead of going
    /// home.
    #[inline]
    fn figure_freed(
        &self,
        _t: &mut Table,
        _i: usize,
        _freed: &mut Vec<(u8, Pos)>,
        _sink: &mut impl EffectSink,
    ) -> bool {
        false
    }

    /// The figures freed by a scoring (`freed`, in turn order from the active player).
    fn figures_freed(&self, _t: &mut Table, _freed: &[(u8, Pos)]) {}

    /// The game ends (final scoring follows): what is under way is settled.
    fn game_ends(&self, _t: &mut Table, _sink: &mut impl EffectSink) {}

    /// The placements of the tile `tt` when this expansion places it by rules of its own
    /// (appended to `out`; `false`: the board's frontier decides).
    #[inline]
    fn placements(&self, _t: &Table, _tt: &TileType, _out: &mut Vec<(Pos, Rotation)>) -> bool {
        false
    }

    /// This expansion's rules for placing the tile `tt` at `pos` with rotation `r` (the
    /// edges fit): why it may not go there.
    #[inline]
    fn tile_check(
        &self,
        _t: &Table,
        _tt: &TileType,
        _pos: Pos,
        _r: Rotation,
    ) -> Result<(), &'static str> {
        Ok(())
    }

    /// The tile `tt` is about to be placed at `pos` with rotation `r` (checked).
    #[inline]
    fn tile_placing(&self, _t: &mut Table, _tt: &TileType, _pos: Pos, _r: Rotation) {}

    /// What this expansion keeps face down from every player (the message stack, top
    /// first), compared before and after a move (see [`Hooks::hidden_read`]).
    fn hidden<'t>(&self, _t: &'t Table) -> &'t [u8] {
        &[]
    }

    /// Whether going from `before` to `after` (two of its [`Hooks::hidden`]) read
    /// something face down.
    fn hidden_read(&self, before: &[u8], after: &[u8]) -> bool {
        before != after
    }

    /// How far what it keeps face down has been read (the undo trail compares marks: equal
    /// marks, nothing read).
    #[inline]
    fn hidden_mark(&self, _t: &Table) -> u64 {
        0
    }

    /// Rearranges with `order` what it keeps face down and nobody has seen (the seat views
    /// hide and re-sample it).
    fn reorder_unseen(&self, _t: &mut Table, _order: &mut impl FnMut(&mut [u8])) {}

    /// Points granted to `player` in award batch `batch`: whether this expansion takes
    /// them (the score track's award queue) instead of the score.
    #[inline]
    fn points_granted(
        &self,
        _t: &mut Table,
        _player: u8,
        _points: i32,
        _batch: u16,
        _sink: &mut impl EffectSink,
    ) -> bool {
        false
    }

    /// Memory its state holds on the heap (beside the table).
    fn heap_bytes(&self, _t: &Table) -> usize {
        0
    }

    /// A new game with `set` and the house rules `rules`: the figures this expansion gives
    /// each player, when in play, put into `supply` (by kind).
    fn figures(
        &self,
        _set: ExpansionSet,
        _rules: &HouseRules,
        _supply: &mut [u8; FigureKind::COUNT],
    ) {
    }

    /// Most players a game with `set` seats when this expansion brings more colours
    /// (`None`: it brings none).
    fn max_players(&self, _set: ExpansionSet) -> Option<u8> {
        None
    }

    /// A new game: this expansion, when in play, sets up its state on the table (before the
    /// start tile is placed).
    fn set_up(&self, _t: &mut Table) {}

    /// A new turn part begins: whether this expansion asks the active player something
    /// before the draw (and has set that decision).
    fn ask_before_draw(&self, _t: &mut Table) -> bool {
        false
    }

    /// The scoring of a turn part begins.
    fn scoring_begins(&self, _t: &mut Table) {}

    /// After a turn part: whether the active player plays another part (taken now).
    fn another_part(&self, _t: &mut Table) -> bool {
        false
    }

    /// The active player's turn is over: the next one begins with a first part.
    fn turn_over(&self, _t: &mut Table) {}

    /// The active player left before placing their tile: the next turn begins with a
    /// first part.
    fn turn_given_up(&self, _t: &mut Table) {}

    /// The turn part will not be followed by another one after all (the final round
    /// began, or the active player's part was cut short).
    fn part_cut_short(&self, _t: &mut Table) {}

    /// The game ends before its turn is over (every other player left): what this
    /// expansion keeps off the board goes home.
    fn game_cut_short(&self, _t: &mut Table) {}
}

impl Table {
    /// Runs the expansions' stage `stage`: the stage that follows, `None` when a decision
    /// is pending.
    #[inline]
    pub(crate) fn run_expansion_stage(
        &mut self,
        stage: Stage,
        sink: &mut impl EffectSink,
    ) -> Option<Stage> {
        match stage {
            Stage::Symbols => self.stage_symbols(),
            Stage::Gold => self.stage_gold(sink),
            Stage::Magic => self.stage_magic(),
            Stage::Ferries => self.stage_ferries(),
            Stage::ScoringOrder => self.stage_scoring_order(),
            Stage::Awards => self.stage_awards(sink),
            Stage::Wagons => (!self.wagons_stage(sink)).then_some(Stage::Messages),
            Stage::Messages => (!self.draw_message(sink)).then_some(Stage::CropCircle),
            Stage::CropCircle => self.stage_crop_circle(),
            Stage::Crop => (!self.next_crop_player()).then_some(Stage::CropCircle),
            Stage::AbbeyRound => self.stage_abbey_round(),
            Stage::FinalAbbey => self.stage_final_abbey(),
            // the base game's stages are the game's
            Stage::Start
            | Stage::Draw
            | Stage::Tile
            | Stage::Figure
            | Stage::Scoring
            | Stage::NextPart
            | Stage::FinalRound
            | Stage::End => Some(stage),
        }
    }

    /// The placed tile's magic symbol (Mage & Witch) is noted, its robber symbol starts the
    /// robber placement (The Robbers).
    fn stage_symbols(&mut self) -> Option<Stage> {
        let ti = self.placed?;
        let symbols = self.board.tiles()[ti].tile_type().symbols;
        self.note_magic_symbol(symbols);
        if self.start_robbers(symbols) {
            return None;
        }
        Some(Stage::Gold)
    }

    /// After the robbers: a gold tile's ingots (Gold Mines).
    fn stage_gold(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        let ti = self.placed?;
        if !self.players[self.current as usize].active {
            return Some(Stage::Scoring);
        }
        if self.gold_tile_placed(ti, sink) {
            return None;
        }
        Some(Stage::Magic)
    }

    /// The magic symbol's move, then a meeting of the mage and the witch (Mage & Witch);
    /// then the figure, or the ferries when a ferry brought the two together.
    fn stage_magic(&mut self) -> Option<Stage> {
        if self.ask_magic_move() {
            return None;
        }
        Some(std::mem::replace(&mut self.after_magic, Stage::Figure))
    }

    /// After the figure: the ferry of a lake tile placed this part, then ferry moves
    /// (Ferries).
    fn stage_ferries(&mut self) -> Option<Stage> {
        if !self.players[self.current as usize].active {
            // the active player left during the figure phase: straight to scoring
            return Some(Stage::Scoring);
        }
        // a ferry that joined the mage's and the witch's roads: one of them moves first
        if self.ask_magic_move_before_ferries() {
            return None;
        }
        if let Some(phase) = self.ferry_decision() {
            self.phase = phase;
            return None;
        }
        Some(Stage::Scoring)
    }

    /// After scoring: the barn placed this part is an old one (Abbey & Mayor); with several
    /// features on the score track, the active player orders them.
    fn stage_scoring_order(&mut self) -> Option<Stage> {
        self.forget_barn();
        if self.ask_scoring_order() {
            return None;
        }
        Some(Stage::Awards)
    }

    /// Works off the award queue (score track), then goes on where the awards came from:
    /// the ferries after the abbot's return, the wagons after scoring, the next message
    /// after a message's points.
    fn stage_awards(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        if self.process_awards(sink) {
            return None;
        }
        let next = self.after_awards;
        if next == Stage::Ferries {
            self.after_awards = Stage::AFTER_AWARDS;
        }
        Some(next)
    }

    /// The crop circle of the tile placed this part (Crop Circles).
    fn stage_crop_circle(&mut self) -> Option<Stage> {
        if let Some(ti) = self.part_tile.take() {
            if self.start_crop_circle(ti) {
                return None;
            }
        }
        Some(Stage::NextPart)
    }

    /// After the last tile: with Abbey & Mayor each player holding an abbey may place it,
    /// starting left of the last active player and ending with them; then the end.
    fn stage_abbey_round(&mut self) -> Option<Stage> {
        let last = self.current;
        if !self.start_final_abbey_round(last) {
            return Some(Stage::End);
        }
        self.after_part = Stage::FinalAbbey;
        self.part_cut_short();
        Some(Stage::FinalAbbey)
    }

    /// The next player of the final abbey round, or the end.
    fn stage_final_abbey(&mut self) -> Option<Stage> {
        self.placed = None;
        if self.ask_final_abbey() {
            return None;
        }
        self.after_part = Stage::Start;
        Some(Stage::End)
    }
}
