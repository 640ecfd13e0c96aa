//! The game: one validated state with exactly one pending decision.
//!
//! Each job has its own file: [`setup`] (a validated set-up), [`errors`] (why something
//! is refused), [`action`] (what an accepted action did), [`legal`] (every option of the
//! pending decision), [`play`] (the one gate), [`turn`] (the turn pipeline, stage by
//! stage), [`scoring`] (completed features, final scoring, ranking), [`resign`] (a player
//! leaving), [`replay`] (a game rebuilt from its log) and [`moves`] (several actions as
//! one move, ending at the first that reveals hidden information). The rules of each
//! expansion live in `crate::expansions`, one file per expansion.

mod action;
mod errors;
mod legal;
pub mod moves;
mod play;
mod replay;
mod resign;
mod scoring;
mod setup;
mod turn;

pub use crate::action::Action;
pub use crate::expansions::messages::ScoreFigure;
pub(crate) use action::Done;
pub use errors::{PlayError, ReplayError, SetupError};
pub use moves::MoveError;
pub use turn::Phase;
pub(crate) use turn::Stage;

use crate::board::Board;
use crate::catalog::{catalog, symbol, EdgeKind, FeatureKind, TileTypeId};
use crate::effect::{Effect, RankEntry};
use crate::event::{Declined, Event};
use crate::expansions::abbey_mayor::barn_check_on;
use crate::expansions::crop_circles::{Crop, CropMode};
use crate::expansions::ferries::Ferry;
use crate::expansions::messages::MessageChoice;
use crate::expansions::river::{self, RiverEnd};
use crate::expansions::score_track::{Award, OrderChoice};
use crate::expansions::traders_builders::{has_own_follower, BuilderPart};
use crate::expansions::{self, Expansion, ExpansionSet};
use crate::figures::FigureKind;
use crate::geometry::{Pos, Rotation, Spot};
use crate::rng::Rng;

/// How a game is set up. Validated by [`Game::new`].
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GameConfig {
    /// Number of seats, 2 to 5 (6 with Inns & Cathedrals).
    pub players: u8,
    pub expansions: Vec<Expansion>,
    /// Catalog ids that replace the shuffled draw pile (sandbox games).
    pub tile_order: Option<Vec<String>>,
    /// The game's secret seed.
    pub seed: u64,
}

/// The pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    pub player: u8,
    pub phase: Phase,
    /// The drawn tile (during both phases of a turn).
    pub tile: Option<TileTypeId>,
}

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

/// A spot of a candidate placement and the figures the current player may put there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpotOption {
    pub spot: Spot,
    /// Catalog feature index on the tile.
    pub feature: u8,
    pub figures: Vec<FigureKind>,
}

/// A legal placement of the drawn tile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    pub pos: Pos,
    pub rotation: Rotation,
    pub spots: Vec<SpotOption>,
}

/// Where effects go. Replay uses a sink that keeps nothing, so it builds none.
pub trait EffectSink {
    fn enabled(&self) -> bool;
    fn push(&mut self, e: Effect);
}

impl EffectSink for Vec<Effect> {
    fn enabled(&self) -> bool {
        true
    }
    fn push(&mut self, e: Effect) {
        Vec::push(self, e)
    }
}

/// A sink that discards effects.
pub struct NoEffects;

impl EffectSink for NoEffects {
    fn enabled(&self) -> bool {
        false
    }
    fn push(&mut self, _e: Effect) {}
}

/// The result of an accepted action: the decision event to store and its consequences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub event: Event,
    pub effects: Vec<Effect>,
}

/// A game in progress (or finished).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) expansions: ExpansionSet,
    pub(crate) players: Vec<PlayerState>,
    pub(crate) board: Board,
    pub(crate) pile: Vec<TileTypeId>,
    pub(crate) next_draw: usize,
    pub(crate) drawn: Option<TileTypeId>,
    pub(crate) current: u8,
    pub(crate) phase: Phase,
    /// Index of the tile placed this turn.
    pub(crate) placed: Option<usize>,
    /// Number of events applied (the game's version).
    pub(crate) version: u32,
    pub(crate) sandbox: bool,
    pub(crate) ranking: Vec<RankEntry>,
    /// The River's open end while the river is being built.
    pub(crate) river: Option<RiverEnd>,
    /// Traders & Builders: where the turn stands with the builder's second part.
    pub(crate) builder: BuilderPart,
    /// Abbey & Mayor: freed wagons waiting for their owners' decisions, in order, with
    /// the cell they stood on.
    pub(crate) wagons: Vec<(u8, Pos)>,
    /// Abbey & Mayor: the segment of the barn placed in this turn part.
    pub(crate) barn_placed: Option<u16>,
    /// Abbey & Mayor: players still to be asked in the final abbey round.
    pub(crate) final_queue: Vec<u8>,
    /// Where the turn goes after a part: the next part (`Start`) or, during the final abbey
    /// round, its next player (`FinalAbbey`).
    pub(crate) after_part: Stage,
    /// The game's random numbers after the set-up (die rolls), from its seed.
    pub(crate) rng: Rng,
    /// Index of the tile placed in this turn part (kept through scoring).
    pub(crate) part_tile: Option<usize>,
    /// Gold Mines: ingots lying on each placed tile (by tile index).
    pub(crate) gold_on: Vec<u8>,
    /// Mage & Witch: the segment each stands on (mage, witch), `None` when set aside.
    pub(crate) magic: [Option<u16>; 2],
    /// Mage & Witch: the placed tile's magic symbol still asks for a move.
    pub(crate) magic_symbol_pending: bool,
    /// Crop Circles: the action under way.
    pub(crate) crop: Option<Crop>,
    /// Flying Machines: the figure in flight and the tile it must land on.
    pub(crate) flight: Option<(FigureKind, usize)>,
    /// Ferries: the ferry of every lake on the board.
    pub(crate) ferries: Vec<Ferry>,
    /// Ferries: lake tiles whose ferry moved in this turn part.
    pub(crate) ferries_moved: Vec<usize>,
    /// Ferries: lake tiles whose ferry was placed or moved in this turn part.
    pub(crate) ferry_touched: Vec<usize>,
    /// Where the turn goes after the mage and the witch: the figure, or the ferries when a
    /// ferry brought them together.
    pub(crate) after_magic: Stage,
    /// Robbers / Messages: each player's score figures (meeple, messenger) by total.
    pub(crate) track: Vec<[i32; 2]>,
    /// Robbers: each player's robber's track space, `None` in the supply.
    pub(crate) robbers: Vec<Option<u8>>,
    /// Robbers: the player after the active one who may place a robber now.
    pub(crate) robber_second: Option<u8>,
    /// Robbers / Messages: awards waiting to move score figures.
    pub(crate) awards: Vec<Award>,
    /// Where the turn goes once the award queue is empty: the ferries (after the abbot's
    /// return), the wagons (after scoring) or the messages (after a message's points).
    pub(crate) after_awards: Stage,
    /// Robbers: victims chosen for the award batch under way (robber's owner, victim,
    /// batch).
    pub(crate) victims: Vec<(u8, u8, u16)>,
    /// Robbers: the score figure the head award moves once the victim is chosen.
    pub(crate) victim_figure: Option<u8>,
    /// Robbers / Messages: features completed together, waiting for their order.
    pub(crate) scoring_order: Vec<OrderChoice>,
    /// The order chosen so far (batches).
    pub(crate) scoring_chosen: Vec<u16>,
    /// Messages: the face-down stack (top first).
    pub(crate) message_stack: Vec<u8>,
    /// Messages: the message drawn and waiting for the active player.
    pub(crate) message_drawn: Option<u8>,
    /// Messages: earned and not yet drawn.
    pub(crate) messages_earned: u8,
    /// Messages: this scoring round already earned its message.
    pub(crate) message_round_earned: bool,
    /// Messages: extra turn parts earned (message 4).
    pub(crate) extra_tiles: u8,
}

impl Game {
    // ----- read access -------------------------------------------------------------

    pub fn expansions(&self) -> ExpansionSet {
        self.expansions
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }
    pub fn player_count(&self) -> u8 {
        self.players.len() as u8
    }
    /// Number of events applied so far, the creation included.
    pub fn version(&self) -> u32 {
        self.version
    }
    pub fn is_sandbox(&self) -> bool {
        self.sandbox
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::GameOver
    }
    /// The final ranking (empty while the game runs).
    pub fn ranking(&self) -> &[RankEntry] {
        &self.ranking
    }
    /// The active player.
    pub fn current_player(&self) -> u8 {
        self.current
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    /// The tile placed this turn (during the figure phase).
    pub fn placed_tile(&self) -> Option<&crate::board::PlacedTile> {
        self.placed.map(|i| &self.board.tiles()[i])
    }

    /// The pending decision, `None` when the game is over.
    pub fn pending(&self) -> Option<Pending> {
        (self.phase != Phase::GameOver).then_some(Pending {
            player: self.decider(),
            phase: self.phase,
            tile: self.drawn,
        })
    }

    /// The player whose decision is pending (not always the active player: a freed
    /// wagon's owner decides during someone else's turn).
    pub fn decider(&self) -> u8 {
        match (self.phase, self.wagons.first()) {
            (Phase::MoveWagon, Some((owner, _))) => *owner,
            _ => match (self.phase, &self.crop) {
                (Phase::CropAction, Some(c)) => c.queue.first().copied().unwrap_or(self.current),
                (Phase::ChooseScoreFigure, _) => self
                    .awards
                    .first()
                    .map(|a| a.player)
                    .unwrap_or(self.current),
                (Phase::PlaceRobber, _) => self.robber_decider(),
                (Phase::ChooseVictim, _) => self
                    .victim_choice(self.victim_figure.unwrap_or(0))
                    .map_or(self.current, |(owner, _)| owner),
                _ => self.current,
            },
        }
    }

    /// Tiles still in the pile (not counting the drawn one).
    pub fn tiles_left(&self) -> usize {
        self.pile.len() - self.next_draw
    }

    /// Remaining tiles by type, in catalog order (public: players can count them).
    pub fn tiles_left_by_type(&self) -> Vec<(TileTypeId, u32)> {
        let mut counts = vec![0u32; catalog().tiles.len()];
        for t in &self.pile[self.next_draw..] {
            counts[t.0 as usize] += 1;
        }
        counts
            .into_iter()
            .enumerate()
            .filter(|(_, c)| *c > 0)
            .map(|(i, c)| (TileTypeId(i as u16), c))
            .collect()
    }

    /// Approximate memory held by the game (struct plus heap).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Game>()
            + self.board.heap_bytes()
            + self.players.capacity() * std::mem::size_of::<PlayerState>()
            + self.pile.capacity() * std::mem::size_of::<TileTypeId>()
            + self.ranking.capacity() * std::mem::size_of::<RankEntry>()
            + self.wagons.capacity() * std::mem::size_of::<(u8, Pos)>()
            + self.final_queue.capacity()
            + self.gold_on.capacity()
            + self.crop.as_ref().map_or(0, |c| c.queue.capacity())
            + self.track.capacity() * std::mem::size_of::<[i32; 2]>()
            + self.robbers.capacity() * std::mem::size_of::<Option<u8>>()
            + self.awards.capacity() * std::mem::size_of::<Award>()
            + self.victims.capacity() * std::mem::size_of::<(u8, u8, u16)>()
            + self.scoring_order.capacity() * std::mem::size_of::<OrderChoice>()
            + self.scoring_chosen.capacity() * 2
            + self.message_stack.capacity()
            + self.ferries.capacity() * std::mem::size_of::<Ferry>()
            + self.ferries_moved.capacity() * std::mem::size_of::<usize>()
            + self.ferry_touched.capacity() * std::mem::size_of::<usize>()
    }
}
