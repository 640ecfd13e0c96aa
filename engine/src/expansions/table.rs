//! The table: what the expansions' hooks work on. The board, the pile, the players, whose
//! turn it is and what is pending, and each expansion's own state (`None` unless the
//! expansion is in play; only its own file reads or writes it).
//!
//! The game (`crate::game::Game`) owns the table and drives the turn over it; the hooks
//! of `crate::expansions` are `impl Table` blocks, so the expansions depend on the table
//! and never on the game. What the hooks share with the core (awarding a feature,
//! figures going home, a feature's final value, naming spots) is here too.

use crate::board::Board;
use crate::catalog::{FeatureKind, TileTypeId};
use crate::decision::{Phase, PlayError};
use crate::effect::{Effect, EffectSink};
use crate::expansion::ExpansionSet;
use crate::figures::FigureKind;
use crate::geometry::{Pos, Spot};
use crate::rng::Rng;
use crate::rules::HouseRules;

use super::abbey_mayor::AbbeyState;
use super::crop_circles::Crop;
use super::ferries::FerryState;
use super::flier::Flight;
use super::gold_mines::GoldState;
use super::mage_witch::MagicState;
use super::messages::MessageState;
use super::river::RiverEnd;
use super::robbers::RobberState;
use super::score_track::ScoreTrack;
use super::stages::Stage;
use super::traders_builders::{has_own_follower, BuilderPart};

/// A player's public state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerState {
    pub score: i32,
    pub supply: [u8; FigureKind::COUNT],
    /// False once the player resigned or timed out.
    pub active: bool,
    /// Goods tokens: wine, grain, cloth (Traders & Builders).
    pub goods: [u8; 3],
    /// Still holds an abbey tile (Abbey & Mayor).
    pub abbey: bool,
    /// Gold ingots taken (Gold Mines).
    pub gold: u8,
}

/// The table of a game: everything the turn and the expansions' hooks work on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub(crate) expansions: ExpansionSet,
    /// The house rules (rule variants) of the game.
    pub(crate) rules: HouseRules,
    /// House rule `unplaceable_tile = reshuffled`: tiles put back into the pile since the
    /// last tile placed (each remaining tile is tried once before one is removed).
    pub(crate) returned: usize,
    pub(crate) players: Vec<PlayerState>,
    /// House rule `tiles_in_hand` above 1: each player's hand (tiles drawn and not yet
    /// placed), hidden from the other players. `None` with one tile in hand (the
    /// standard rules: the drawn tile is the game's `drawn`).
    pub(crate) hands: Option<Vec<Vec<TileTypeId>>>,
    pub(crate) board: Board,
    pub(crate) pile: Vec<TileTypeId>,
    pub(crate) next_draw: usize,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Index of the tile placed this turn.
    pub(crate) placed: Option<usize>,
    /// Where the turn goes after a part: the next part (`Start`) or, during the final abbey
    /// round, its next player (`FinalAbbey`).
    pub(crate) after_part: Stage,
    /// The game's random numbers after the set-up (die rolls), from its seed.
    pub(crate) rng: Rng,
    /// Index of the tile placed in this turn part (kept through scoring).
    pub(crate) part_tile: Option<usize>,
    /// Where the turn goes after the mage and the witch: the figure, or the ferries when a
    /// ferry brought them together.
    pub(super) after_magic: Stage,
    /// Where the turn goes once the award queue is empty: the ferries (after the abbot's
    /// return), the wagons (after scoring) or the messages (after a message's points).
    pub(super) after_awards: Stage,
    // ----- the expansions' state: each is `None` unless its expansion is in play; only
    // its own file (`crate::expansions::…`) reads or writes it (the rest of the crate
    // cannot reach it).
    /// The River's open end while the river is being built.
    pub(super) river: Option<RiverEnd>,
    /// Traders & Builders: where the turn stands with the builder's second part.
    pub(super) builder: Option<BuilderPart>,
    /// Abbey & Mayor: freed wagons, the barn placed this part, the final abbey round.
    pub(super) abbey_mayor: Option<Box<AbbeyState>>,
    /// Gold Mines: the ingots on the tiles.
    pub(super) gold_mines: Option<Box<GoldState>>,
    /// Mage & Witch: where they stand, and a magic symbol's pending move.
    pub(super) mage_witch: Option<MagicState>,
    /// Crop Circles: the action under way.
    pub(super) crop: Option<Crop>,
    /// Flying Machines: the figure in flight and the tile it must land on.
    pub(super) flight: Option<Flight>,
    /// Ferries: the ferries and what moved in this turn part.
    pub(super) ferry: Option<Box<FerryState>>,
    /// Robbers / Messages: the score track, its award queue and scoring order.
    pub(super) score_track: Option<Box<ScoreTrack>>,
    /// Robbers: the robbers on the track.
    pub(super) robbers: Option<Box<RobberState>>,
    /// Messages: the stack and the messages earned and drawn.
    pub(super) messages: Option<Box<MessageState>>,
}

impl Table {
    /// The table of a new game, before its start tile is placed: the expansions in play set
    /// up their own state (through the registry, in its order).
    pub(crate) fn new(
        expansions: ExpansionSet,
        rules: HouseRules,
        players: Vec<PlayerState>,
        hands: Option<Vec<Vec<TileTypeId>>>,
        board: Board,
        pile: Vec<TileTypeId>,
        rng: Rng,
    ) -> Table {
        let mut t = Table {
            expansions,
            rules,
            returned: 0,
            players,
            hands,
            board,
            pile,
            next_draw: 0,
            current: 0,
            phase: Phase::PlaceTile,
            placed: None,
            after_part: Stage::Start,
            rng,
            part_tile: None,
            after_magic: Stage::Figure,
            after_awards: Stage::AFTER_AWARDS,
            river: None,
            builder: None,
            abbey_mayor: None,
            gold_mines: None,
            mage_witch: None,
            crop: None,
            flight: None,
            ferry: None,
            score_track: None,
            robbers: None,
            messages: None,
        };
        t.set_up_expansions();
        t
    }

    /// Tiles still in the pile (not counting the drawn one).
    pub fn tiles_left(&self) -> usize {
        self.pile.len() - self.next_draw
    }

    /// The next active player clockwise.
    pub(crate) fn advance_player(&mut self) {
        let n = self.players.len() as u8;
        for k in 1..=n {
            let p = (self.current + k) % n;
            if self.players[p as usize].active {
                self.current = p;
                return;
            }
        }
    }

    /// The active player left in a decision their tile asked for before the figure (the
    /// second ingot, the magic move, the flier's landing): what the tile started is
    /// dropped, and the turn part goes on to scoring (returned).
    pub(crate) fn figure_given_up(&mut self) -> Stage {
        self.after_magic = Stage::Figure;
        self.drop_flight();
        self.drop_magic_symbol();
        self.part_cut_short();
        Stage::Scoring
    }

    /// Gives `value` to each majority holder of the feature containing `seg`; a holder
    /// with a pig in it gets `pig_bonus` more.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn award(
        &mut self,
        seg: u16,
        kind: FeatureKind,
        value: i32,
        pig_bonus: i32,
        final_scoring: bool,
        batch: u16,
        sink: &mut impl EffectSink,
    ) -> u8 {
        let extra = [0; 8];
        self.award_with(
            seg,
            kind,
            value,
            pig_bonus,
            &extra,
            final_scoring,
            batch,
            sink,
        )
    }

    /// [`Table::award`] where each majority holder `p` also gets `extra[p]` (the
    /// expansions' field bonus). One scoring per distinct award: the holders without a
    /// pig, then those with one, each by their points, fewest first.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn award_with(
        &mut self,
        seg: u16,
        kind: FeatureKind,
        value: i32,
        pig_bonus: i32,
        extra: &[i32; 8],
        final_scoring: bool,
        batch: u16,
        sink: &mut impl EffectSink,
    ) -> u8 {
        let (strength, pig) = self.strengths(seg);
        let max = strength.iter().copied().max().unwrap_or(0);
        if max == 0 {
            return 0;
        }
        let n = self.players.len();
        let mut owners = 0u8;
        for with_pig in [false, true] {
            // the distinct extras of these holders, fewest first
            let mut extras = [0i32; 8];
            let mut ne = 0;
            for p in 0..n {
                if strength[p] == max && pig[p] == with_pig && !extras[..ne].contains(&extra[p]) {
                    extras[ne] = extra[p];
                    ne += 1;
                }
            }
            extras[..ne].sort_unstable();
            for &x in &extras[..ne] {
                let points = value + if with_pig { pig_bonus } else { 0 } + x;
                let mut winners = Vec::new();
                for p in 0..n {
                    if strength[p] == max && pig[p] == with_pig && extra[p] == x {
                        owners |= 1 << p;
                        self.grant(p as u8, points, batch, sink);
                        if sink.enabled() {
                            winners.push(p as u8);
                        }
                    }
                }
                if sink.enabled() && !winners.is_empty() {
                    let tiles = if kind.is_cloister() {
                        vec![self.board.tiles()[self.board.seg_tile(seg)].pos]
                    } else {
                        self.board.feature_positions(seg)
                    };
                    sink.push(Effect::FeatureScored {
                        feature: kind,
                        points,
                        players: winners,
                        tiles,
                        final_scoring,
                    });
                }
            }
        }
        owners
    }

    /// Each player's strength in the feature containing `seg` (followers by their
    /// strength, a mayor by the feature's pennants) and whether they have a pig in it: who
    /// holds the majority when it is scored.
    pub(crate) fn strengths(&self, seg: u16) -> ([u32; 8], [bool; 8]) {
        let root = self.board.find(seg);
        let mut strength = [0u32; 8];
        let mut pig = [false; 8];
        for f in &self.board.figures {
            if self.board.find(f.seg) == root {
                if f.kind == FigureKind::Mayor {
                    strength[f.owner as usize] += self.board.pennants(root);
                } else if f.kind.is_follower() {
                    strength[f.owner as usize] += f.kind.base_strength();
                } else if f.kind == FigureKind::Pig {
                    pig[f.owner as usize] = true;
                }
            }
        }
        (strength, pig)
    }

    pub(crate) fn return_figures(&mut self, root: u16, sink: &mut impl EffectSink) {
        let root = self.board.find(root);
        let mut i = 0;
        while i < self.board.figures.len() {
            if self.board.find(self.board.figures[i].seg) == root {
                self.return_figure(i, sink);
            } else {
                i += 1;
            }
        }
    }

    pub(crate) fn return_figure(&mut self, i: usize, sink: &mut impl EffectSink) {
        let f = self.board.figures[i];
        if sink.enabled() {
            let (pos, spot) = self.board.figure_spot(&f);
            let pt = self.board.tile_at(pos).map(|t| t.tile_type());
            sink.push(Effect::FigureReturned {
                player: f.owner,
                figure: f.kind,
                x: pos.x,
                y: pos.y,
                spot: pt.map(|t| t.spot_name(spot)).unwrap_or_default(),
            });
        }
        self.board.remove_figure(i);
        self.players[f.owner as usize].supply[f.kind as usize] += 1;
    }

    /// Builders and pigs go home when their feature holds none of their owner's followers.
    pub(crate) fn return_lonely_specials(&mut self, sink: &mut impl EffectSink) {
        // only a follower leaving, a road splitting or a new builder or pig can leave one
        // alone
        if !self.board.take_lonely_check() {
            return;
        }
        let mut i = 0;
        while i < self.board.figures.len() {
            let f = self.board.figures[i];
            if f.kind.needs_own_follower() && !has_own_follower(&self.board, f.seg, f.owner) {
                self.return_figure(i, sink);
            } else {
                i += 1;
            }
        }
    }

    /// A feature's final-scoring value (inns, cathedrals, mage and witch included; fields
    /// 3 per completed city, +1 with `player`'s pig, + the expansions' field bonus).
    pub(crate) fn final_feature_value(&self, seg: u16, player: u8) -> i32 {
        let kind = self.board.seg_kind(seg);
        match kind {
            FeatureKind::Road | FeatureKind::City => {
                let tiles = self.board.distinct_tiles(seg);
                let v = super::final_value(
                    kind,
                    tiles,
                    self.board.pennants(seg),
                    self.board.flags(seg),
                    0,
                );
                self.magic_value(seg, v, tiles)
            }
            FeatureKind::Monastery | FeatureKind::Garden => {
                let p = self.board.tiles()[self.board.seg_tile(seg)].pos;
                super::final_value(kind, 1 + self.board.surrounding_tiles(p), 0, 0, 0)
            }
            FeatureKind::Field => {
                let done = self.board.completed_cities(seg, &mut Vec::new()) as i32;
                let root = self.board.find(seg);
                let pig = self.board.figures.iter().any(|f| {
                    f.owner == player && f.kind == FigureKind::Pig && self.board.find(f.seg) == root
                });
                let herd = self.field_city_bonus(&[root], player);
                (3 + if pig { super::PIG_BONUS_PER_CITY } else { 0 } + herd) * done
            }
            _ => 0,
        }
    }

    /// The feature that `spot` names on the tile at `pos` (a corner spot names none).
    pub(crate) fn feature_seg_at(&self, pos: Pos, spot: &str) -> Result<u16, PlayError> {
        self.board
            .tile_index_at(pos)
            .and_then(|j| {
                let pt = self.board.tiles()[j];
                let tt = pt.tile_type();
                let s = tt.parse_spot(spot)?;
                if matches!(s, Spot::Corner(_)) {
                    return None;
                }
                tt.feature_at(pt.rotation, s).map(|i| self.board.seg(j, i))
            })
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))
    }

    /// The name of the spot of segment `seg` on its tile.
    pub(crate) fn spot_name_of(&self, seg: u16) -> String {
        let ti = self.board.seg_tile(seg);
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        tt.spot_name(tt.canonical_spot(pt.rotation, self.board.seg_feature(seg)))
    }

    /// The segment that `spot` names on the tile at `pos`, `None` for a corner or an
    /// unknown spot.
    pub(crate) fn seg_at(&self, pos: Pos, spot: &str) -> Option<u16> {
        let j = self.board.tile_index_at(pos)?;
        let pt = self.board.tiles()[j];
        let tt = pt.tile_type();
        let s = tt.parse_spot(spot)?;
        if matches!(s, crate::geometry::Spot::Corner(_)) {
            return None;
        }
        tt.feature_at(pt.rotation, s).map(|i| self.board.seg(j, i))
    }
}
