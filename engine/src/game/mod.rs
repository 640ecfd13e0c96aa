//! The game: one validated state with exactly one pending decision.
//!
//! A [`Game`] owns the [`Table`] (board, pile, players, each expansion's optional state;
//! `crate::expansions::table`) that the expansions' hooks work on, and keeps what only the
//! turn needs (the drawn tile, the version, the ranking). The kind of decision pending,
//! the turn's stages and the refusals are in `crate::decision`, below both; what a player
//! decides is `crate::action::Action`.
//!
//! Each job has its own file: [`setup`] (a validated set-up), [`errors`] (why a set-up or
//! a replay is refused), [`legal`] (every option of the pending decision: the base game's,
//! and the expansions' through their hooks), [`play`] (the one gate: the base game's
//! decisions, the expansions' through their hooks), [`turn`] (the turn pipeline, stage by
//! stage), [`scoring`] (completed features, final scoring, ranking), [`resign`] (a player
//! leaving), [`replay`] (a game rebuilt from its log) and [`moves`] (several actions as
//! one move, ending at the first that reveals hidden information), [`undo`] (decisions
//! taken back before anything is revealed) and [`view`] (what one seat
//! may see, and games sampled from it for computer opponents). The rules of each
//! expansion live in `crate::expansions`, one file per expansion, with its state.

mod errors;
mod hand;
mod legal;
pub mod moves;
mod play;
mod replay;
mod resign;
mod scoring;
mod setup;
mod turn;
mod undo;
pub mod view;

pub use crate::action::Action;
pub use crate::decision::{Phase, PlayError};
pub use crate::effect::{EffectSink, NoEffects};
pub(crate) use crate::expansions::decisions::{Done, HIDDEN, REGISTERED};
pub use crate::expansions::messages::ScoreFigure;
pub(crate) use crate::expansions::stages::Stage;
pub use crate::expansions::table::{PlayerState, Table};
pub use errors::{ReplayError, SetupError};
pub use moves::MoveError;
pub use view::SeatView;

use crate::board::Board;
use crate::catalog::{catalog, FeatureKind, TileTypeId};
use crate::effect::{Effect, RankEntry};
use crate::event::{Declined, Event};
use crate::expansions::{self, Expansion, ExpansionSet};
use crate::figures::FigureKind;
use crate::geometry::{Pos, Rotation, Spot};
use crate::rng::Rng;
use crate::rules::HouseRules;

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
    /// The rule variants (house rules); the standard rules by default.
    pub rules: HouseRules,
}

/// The pending decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    pub player: u8,
    pub phase: Phase,
    /// The drawn tile (during both phases of a turn). With the house rule
    /// `tiles_in_hand` the tile is chosen from the hand: none while it is being chosen
    /// (the hand is the player's alone, see [`Game::hand`]), the placed tile after.
    pub tile: Option<TileTypeId>,
}

/// A spot of a candidate placement and the figures the current player may put there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpotOption {
    pub spot: Spot,
    /// Catalog feature index on the tile.
    pub feature: u8,
    pub figures: Vec<FigureKind>,
}

/// A legal placement of the drawn tile (or of a tile of the hand).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The tile placed.
    pub tile: TileTypeId,
    pub pos: Pos,
    pub rotation: Rotation,
    pub spots: Vec<SpotOption>,
}

/// The result of an accepted action: the decision event to store and its consequences.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub event: Event,
    pub effects: Vec<Effect>,
}

/// A game in progress (or finished): the table (board, pile, players, the expansions'
/// state, see [`Table`]) and what only the turn pipeline keeps (the drawn tile, the
/// version, the ranking). The table's read access is the game's too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub(crate) table: Table,
    pub(crate) drawn: Option<TileTypeId>,
    /// Number of events applied (the game's version).
    pub(crate) version: u32,
    pub(crate) sandbox: bool,
    pub(crate) ranking: Vec<RankEntry>,
    /// Who took the decisions since the last reveal (what may be undone).
    pub(crate) trail: undo::Trail,
}

impl std::ops::Deref for Game {
    type Target = Table;
    fn deref(&self) -> &Table {
        &self.table
    }
}

impl std::ops::DerefMut for Game {
    fn deref_mut(&mut self) -> &mut Table {
        &mut self.table
    }
}

impl Game {
    // ----- read access -------------------------------------------------------------

    pub fn expansions(&self) -> ExpansionSet {
        self.expansions
    }
    /// The game's rule variants (house rules).
    pub fn house_rules(&self) -> HouseRules {
        self.rules
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
    /// wagon's owner decides during someone else's turn; an expansion's `Decisions` say
    /// who decides in its phases).
    pub fn decider(&self) -> u8 {
        self.expansion_decider().unwrap_or(self.current)
    }

    /// Remaining tiles by type, in catalog order (public: players can count them). With
    /// the house rule `tiles_in_hand` the tiles in the players' hands count as remaining
    /// (nobody but their holder has seen them; for a seat's own count see
    /// [`Game::tiles_unseen_by`]).
    pub fn tiles_left_by_type(&self) -> Vec<(TileTypeId, u32)> {
        self.count_by_type(
            self.pile[self.next_draw..]
                .iter()
                .chain(self.hands.iter().flatten().flatten()),
        )
    }

    /// Approximate memory held by the game (struct plus heap).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Game>()
            + self.board.heap_bytes()
            + self.players.capacity() * std::mem::size_of::<PlayerState>()
            + self.hands.as_ref().map_or(0, |h| {
                h.iter()
                    .map(|h| h.capacity() * std::mem::size_of::<TileTypeId>())
                    .sum::<usize>()
                    + h.capacity() * std::mem::size_of::<Vec<TileTypeId>>()
            })
            + self.pile.capacity() * std::mem::size_of::<TileTypeId>()
            + self.ranking.capacity() * std::mem::size_of::<RankEntry>()
            + self.expansions_heap_bytes()
            + self.trail.heap_bytes()
    }
}
