//! The analysis of a position from what one seat may know: the score of every player if
//! the game ended now (with its parts), the tile tracker, the outlook of every open
//! feature and the fields.
//!
//! Everything here is computed from a [`SeatView`] alone: the board, the figures, the
//! scores, the counts of the tiles left by type, and (with the house rule
//! `tiles_in_hand`) the seat's own hand. The view's hidden future is canonical (see
//! [`crate::game::view`]), and nothing here reads its order: two games that agree on what
//! the seat has seen give the same analysis.
//!
//! - *Score if the game ended now*: the engine's own final scoring run on a copy of the
//!   view ([`Game::final_scores_now`] does the same), its parts read from the effects it
//!   produces: the base game's features by kind, each expansion's part as that
//!   expansion's file claims its effects (`crate::expansions::end_scoring_part`), and
//!   `track`, what the score track (Robbers, Messages) still owed and paid as the game
//!   ended. The parts add up to the difference between the two scores.
//! - *Tile tracker*: the tiles still to come (the drawn tile waiting to be placed, the
//!   pile, and with `tiles_in_hand` every hand), by type, each with the number of legal
//!   placements (position and rotation) it has on the board now and the number of
//!   distinct cells they use.
//! - *Open features*: every road and city with an open side and every monastery and
//!   garden not yet surrounded; see [`OpenFeature`]. The completion chance is estimated
//!   as `estimate.rs` documents.
//! - *Fields*: every field that holds a figure or supplies a completed city.

mod estimate;
mod sim;
mod sim_board;

use serde::{Deserialize, Serialize};

use crate::board::Board;
use crate::catalog::{catalog, FeatureKind, TileTypeId};
use crate::effect::Effect;
use crate::expansions::{self, Expansion};
use crate::game::{Game, Phase, SeatView};
use crate::geometry::{Dir, Pos, Rotation};

use estimate::Watched;
pub use estimate::{InTurn, Job, Split};

/// The default number of sampled futures per analysis.
pub const DEFAULT_SAMPLES: u32 = 12_000;

/// The most futures an analysis samples (a larger budget is taken as this one).
pub const MAX_SAMPLES: u32 = 20_000;

/// How an analysis is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisOptions {
    /// Futures sampled for the completion chances (1 to [`MAX_SAMPLES`]). When the tiles to come
    /// have no more distinct orders than this, every order is played and the chances
    /// are exact.
    pub samples: u32,
    /// The seed of the samples; `None`: derived from the visible state (the same view
    /// gives the same analysis).
    pub seed: Option<u64>,
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            samples: DEFAULT_SAMPLES,
            seed: None,
        }
    }
}

/// The analysis of a position for one seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Analysis {
    /// The seat whose view was analysed.
    pub seat: u8,
    /// The game's version (events applied) analysed.
    pub version: u32,
    /// Every player's score now and if the game ended now.
    pub scores: Vec<ScoreIfEnded>,
    /// The tiles still to come.
    pub tiles: TileTracker,
    /// Every open road, city, monastery and garden, by kind then smallest position.
    pub features: Vec<OpenFeature>,
    /// Every field that holds a figure or supplies a completed city.
    pub fields: Vec<FieldOutlook>,
    /// How the completion chances were computed.
    pub chances: ChanceMethod,
}

/// How the completion chances were computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChanceMethod {
    /// Futures played.
    pub futures: u64,
    /// Every distinct order of the tiles to come was played (the chances are exact for
    /// the policy); otherwise `futures` orders were sampled.
    pub exact: bool,
    /// The seed of the samples (below 2^53 when derived from the visible state).
    pub seed: u64,
}

/// A player's score now, if the game ended now, and the parts of the difference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoreIfEnded {
    pub player: u8,
    pub score: i32,
    /// The final score if the game ended now (the engine's final scoring).
    pub if_ended: i32,
    /// What final scoring adds, by part: `if_ended - score`.
    pub parts: ScoreParts,
}

/// The points final scoring adds, by part.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ScoreParts {
    pub roads: i32,
    pub cities: i32,
    pub monasteries: i32,
    pub fields: i32,
    /// Each expansion in play that scores at the end (gardens, barns, goods, gold,
    /// robbers), in the order of `Expansion::ALL`.
    pub expansions: Vec<ExpansionPoints>,
    /// Points the score track (Robbers, Messages) still owed from earlier scorings, paid
    /// as the game ends.
    pub track: i32,
}

/// An expansion's part of final scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ExpansionPoints {
    /// The expansion's id (`traders_builders`, ...).
    pub expansion: String,
    pub points: i32,
}

/// The tiles still to come, by type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TileTracker {
    /// How many tiles are still to come.
    pub left: u32,
    /// Per type still to come, in catalog order.
    pub kinds: Vec<TileLeft>,
}

/// One type of tile still to come.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TileLeft {
    /// The catalog id (`base/D`, ...).
    pub tile: String,
    pub count: u32,
    /// Legal placements (position and rotation) of one such tile on the board now.
    pub placements: u32,
    /// Distinct cells among those placements.
    pub cells: u32,
}

/// A feature, named by a spot on its smallest tile (as the API names spots).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeatureRef {
    /// `road`, `city`, `field`, `monastery`, `garden`, ...
    #[cfg_attr(feature = "openapi", schema(value_type = String))]
    pub kind: FeatureKind,
    pub x: i32,
    pub y: i32,
    pub spot: String,
    /// Distinct tiles it lies on.
    pub tiles: u32,
}

/// An open road, city, monastery or garden.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct OpenFeature {
    pub feature: FeatureRef,
    /// The players who hold the majority in it (who would score it).
    pub owners: Vec<u8>,
    /// Each player's strength in it (followers, a mayor by the pennants).
    pub strength: Vec<u32>,
    /// What it scores if the game ends now (inns, cathedrals, mage and witch included).
    pub worth_now: i32,
    /// What it scores when completed with one tile in each needed cell (the smallest
    /// completion; a monastery or garden: its completed value).
    pub worth_completed: i32,
    /// The empty cells it still needs.
    pub needs: Vec<NeededCell>,
    /// Some needed cell can be filled by no tile still to come (nor by an abbey): it can
    /// never be completed.
    pub dead: bool,
    /// The estimated chance that it is completed before the tiles run out (0 when dead).
    pub chance: f64,
}

/// An empty cell a feature needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NeededCell {
    pub x: i32,
    pub y: i32,
    /// The cell's sides that the feature reaches (`N`, `E`, `S`, `W`); none for a cell
    /// around a monastery or garden.
    pub sides: Vec<String>,
    /// Tiles still to come that fit the cell now (every neighbour's edge matched, in
    /// some rotation); a cell with no neighbour yet fits every tile but the River's.
    pub fitting: u32,
    /// Types among them.
    pub fitting_types: u32,
    /// A hole (tiles on all four sides) that an abbey still held by a player can fill.
    pub abbey: bool,
}

/// A field: the completed cities it supplies and who holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FieldOutlook {
    pub feature: FeatureRef,
    pub owners: Vec<u8>,
    pub strength: Vec<u32>,
    /// The completed cities it supplies.
    pub cities: Vec<FeatureRef>,
    /// What each owner scores for it if the game ends now (3 per completed city; a pig
    /// adds 1 per city to its owner; under `field_scoring = per_city` cities pay
    /// differently).
    pub worth: i32,
}

/// The analysis of `view`'s position for its seat: see the module documentation.
pub fn analyze(view: &SeatView, options: &AnalysisOptions) -> Analysis {
    analyze_split(view, options, &InTurn)
}

/// [`analyze`], with the sampled futures cut into parts that `split` runs (on the
/// caller's threads); the analysis is the same however they are cut.
pub fn analyze_split(view: &SeatView, options: &AnalysisOptions, split: &dyn Split) -> Analysis {
    let game = view.game();
    let seat = view.seat();
    let (first, pool) = tiles_to_come(game, seat);
    let tiles = tracker(game, first, &pool);
    // 53 bits: the seed reads back exactly as a JSON number in every client
    let seed = options
        .seed
        .unwrap_or_else(|| visible_hash(game, seat, &pool) & ((1 << 53) - 1));
    let (features, chances) = open_features(game, first, &pool, options.samples, seed, split);
    Analysis {
        seat,
        version: game.version(),
        scores: scores_if_ended(game),
        tiles,
        features,
        fields: fields(game),
        chances,
    }
}

/// The tiles still to come as `seat` sees them: the drawn tile waiting to be placed, and
/// the others (the seat's own hand, the tiles it has not seen), sorted by type.
fn tiles_to_come(game: &Game, seat: u8) -> (Option<TileTypeId>, Vec<TileTypeId>) {
    let first = game
        .pending()
        .filter(|p| p.phase == Phase::PlaceTile)
        .and_then(|p| p.tile);
    let mut pool: Vec<TileTypeId> = game.hand(seat).to_vec();
    for (t, n) in game.tiles_unseen_by(seat) {
        pool.extend(std::iter::repeat_n(t, n as usize));
    }
    pool.sort_unstable();
    (first, pool)
}

/// FNV-1a over what the seat sees: the seed of the samples when none is given.
fn visible_hash(game: &Game, seat: u8, pool: &[TileTypeId]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut eat = |v: i64| {
        for b in v.to_le_bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    };
    eat(seat as i64);
    eat(game.version() as i64);
    for t in game.board().tiles() {
        eat(t.tile.0 as i64);
        eat(t.pos.x as i64);
        eat(t.pos.y as i64);
        eat(t.rotation.index() as i64);
    }
    for f in &game.board().figures {
        eat(f.owner as i64);
        eat(f.kind as i64);
        eat(f.seg as i64);
    }
    for p in game.players() {
        eat(p.score as i64);
    }
    for t in pool {
        eat(t.0 as i64);
    }
    h
}

// ----- score if the game ended now ------------------------------------------------------

/// Every player's score now and if the game ended now, with the parts of the difference
/// (read from the effects of the final scoring on a copy; nothing hidden is read).
pub fn scores_if_ended(game: &Game) -> Vec<ScoreIfEnded> {
    let mut end = game.clone();
    let mut fx: Vec<Effect> = Vec::new();
    if !end.is_over() {
        end.end_game(&mut fx);
    }
    let in_play: Vec<Expansion> = expansions::END_SCORING
        .into_iter()
        .filter(|e| game.expansions().contains(*e))
        .collect();
    let mut parts: Vec<ScoreParts> = (0..game.players().len())
        .map(|_| ScoreParts {
            expansions: in_play
                .iter()
                .map(|e| ExpansionPoints {
                    expansion: e.id().to_string(),
                    points: 0,
                })
                .collect(),
            ..ScoreParts::default()
        })
        .collect();
    for e in &fx {
        if let Effect::FeatureScored {
            feature,
            points,
            players,
            ..
        } = e
        {
            for p in players {
                let part = &mut parts[*p as usize];
                match feature {
                    FeatureKind::Road => part.roads += points,
                    FeatureKind::City => part.cities += points,
                    FeatureKind::Monastery => part.monasteries += points,
                    FeatureKind::Field => part.fields += points,
                    _ => {}
                }
            }
        }
        if let Some((expansion, points)) = expansions::end_scoring_part(e) {
            if let Some(k) = in_play.iter().position(|x| *x == expansion) {
                for (p, pts) in points {
                    parts[p as usize].expansions[k].points += pts;
                }
            }
        }
    }
    game.players()
        .iter()
        .zip(end.players())
        .zip(parts)
        .enumerate()
        .map(|(i, ((now, ended), mut parts))| {
            let counted = parts.roads
                + parts.cities
                + parts.monasteries
                + parts.fields
                + parts.expansions.iter().map(|e| e.points).sum::<i32>();
            parts.track = ended.score - now.score - counted;
            ScoreIfEnded {
                player: i as u8,
                score: now.score,
                if_ended: ended.score,
                parts,
            }
        })
        .collect()
}

// ----- the tile tracker -----------------------------------------------------------------

/// The tiles to come by type, in catalog order.
fn count_by_type(first: Option<TileTypeId>, pool: &[TileTypeId]) -> Vec<(TileTypeId, u32)> {
    let mut all: Vec<TileTypeId> = first.iter().chain(pool).copied().collect();
    all.sort_unstable();
    let mut counts: Vec<(TileTypeId, u32)> = Vec::new();
    for t in all {
        match counts.last_mut() {
            Some(c) if c.0 == t => c.1 += 1,
            _ => counts.push((t, 1)),
        }
    }
    counts
}

fn tracker(game: &Game, first: Option<TileTypeId>, pool: &[TileTypeId]) -> TileTracker {
    let counts = count_by_type(first, pool);
    let mut out = Vec::with_capacity(64);
    let kinds = counts
        .iter()
        .map(|&(t, count)| {
            out.clear();
            game.tile_placements(t, &mut out);
            let mut cells: Vec<Pos> = out.iter().map(|(p, _)| *p).collect();
            cells.sort_unstable();
            cells.dedup();
            TileLeft {
                tile: catalog().get(t).id.clone(),
                count,
                placements: out.len() as u32,
                cells: cells.len() as u32,
            }
        })
        .collect();
    TileTracker {
        left: counts.iter().map(|c| c.1).sum(),
        kinds,
    }
}

// ----- open features --------------------------------------------------------------------

/// Names the feature containing `seg` by a spot on its smallest tile.
fn feature_ref(game: &Game, seg: u16) -> FeatureRef {
    let b = game.board();
    let kind = b.seg_kind(seg);
    let (named, tiles) = if kind.is_cloister() {
        (seg, 1)
    } else {
        let root = b.find(seg);
        let smallest = b.smallest_pos(root);
        let named = b
            .members(root)
            .filter(|m| b.tiles()[b.seg_tile(*m)].pos == smallest)
            .min()
            .unwrap_or(root);
        (named, b.distinct_tiles(root))
    };
    let pos = b.tiles()[b.seg_tile(named)].pos;
    FeatureRef {
        kind,
        x: pos.x,
        y: pos.y,
        spot: game.spot_name_of(named),
        tiles,
    }
}

/// The owners (majority) and each player's strength in the feature containing `seg`.
fn holders(game: &Game, seg: u16) -> (Vec<u8>, Vec<u32>) {
    let (strength, _) = game.strengths(seg);
    let n = game.players().len();
    let max = strength[..n].iter().copied().max().unwrap_or(0);
    let owners = if max == 0 {
        Vec::new()
    } else {
        (0..n as u8)
            .filter(|p| strength[*p as usize] == max)
            .collect()
    };
    (owners, strength[..n].to_vec())
}

/// The open roads, cities, monasteries and gardens (one segment each), by kind then
/// smallest position.
fn open_segments(board: &Board) -> Vec<(u16, bool)> {
    let mut out: Vec<(u8, Pos, u16, bool)> = Vec::new();
    let mut roots: Vec<u16> = Vec::new();
    for (ti, pt) in board.tiles().iter().enumerate() {
        for (i, f) in pt.tile_type().features.iter().enumerate() {
            let seg = board.seg(ti, i);
            match f.kind {
                FeatureKind::Road | FeatureKind::City => {
                    let root = board.find(seg);
                    if board.open_sides(seg) > 0 && !roots.contains(&root) {
                        roots.push(root);
                        let key = if f.kind == FeatureKind::Road { 0 } else { 1 };
                        out.push((key, board.smallest_pos(root), root, false));
                    }
                }
                k if k.is_cloister() && !board.is_complete(seg) => {
                    out.push((2, pt.pos, seg, true));
                }
                _ => {}
            }
        }
    }
    out.sort_by_key(|x| (x.0, x.1));
    out.into_iter().map(|x| (x.2, x.3)).collect()
}

/// The empty cells the feature containing `seg` needs, each with the sides it reaches
/// (bit per side of the cell); a cloister's cells reach none.
fn needed_cells(board: &Board, seg: u16, cloister: bool) -> Vec<(Pos, u8)> {
    let mut cells: Vec<(Pos, u8)> = Vec::new();
    if cloister {
        let pos = board.tiles()[board.seg_tile(seg)].pos;
        for p in pos.surrounding() {
            if !board.is_occupied(p) {
                cells.push((p, 0));
            }
        }
        return cells;
    }
    let root = board.find(seg);
    for m in board.members(root) {
        let pt = board.tiles()[board.seg_tile(m)];
        let f = board.seg_feature(m) as u8;
        for d in Dir::ALL {
            let q = pt.pos.step(d);
            if pt.tile_type().edge_feature[pt.rotation.index()][d.index()] != f
                || board.is_occupied(q)
            {
                continue;
            }
            let side = 1u8 << d.opposite().index();
            match cells.iter_mut().find(|c| c.0 == q) {
                Some(c) => c.1 |= side,
                None => cells.push((q, side)),
            }
        }
    }
    cells.sort_unstable_by_key(|c| c.0);
    cells
}

/// Whether tile `t` can be placed at the empty cell `p` now (a cell with no neighbour:
/// any tile but the River's).
fn fits_cell(game: &Game, t: TileTypeId, p: Pos) -> bool {
    let b = game.board();
    let tt = catalog().get(t);
    // a tile an expansion places by rules of its own (a river tile continues the river's
    // open end): one of its placements must be at `p`
    let mut own = Vec::new();
    if game.expansion_placements(tt, &mut own) {
        return own.iter().any(|&(q, _)| q == p);
    }
    if Dir::ALL.into_iter().all(|d| !b.is_occupied(p.step(d))) {
        return true;
    }
    Rotation::ALL.into_iter().any(|r| b.fits(tt, p, r))
}

fn open_features(
    game: &Game,
    first: Option<TileTypeId>,
    pool: &[TileTypeId],
    samples: u32,
    seed: u64,
    split: &dyn Split,
) -> (Vec<OpenFeature>, ChanceMethod) {
    let b = game.board();
    let open = open_segments(b);
    // the types to come with their counts
    let kinds = count_by_type(first, pool);
    let abbey_held = game.players().iter().any(|p| p.active && p.abbey);
    let mut features: Vec<OpenFeature> = open
        .iter()
        .map(|&(seg, cloister)| {
            let cells = needed_cells(b, seg, cloister);
            let needs: Vec<NeededCell> = cells
                .iter()
                .map(|&(p, sides)| {
                    let fit: Vec<(TileTypeId, u32)> = kinds
                        .iter()
                        .copied()
                        .filter(|(t, _)| fits_cell(game, *t, p))
                        .collect();
                    NeededCell {
                        x: p.x,
                        y: p.y,
                        sides: Dir::ALL
                            .into_iter()
                            .filter(|d| sides & (1 << d.index()) != 0)
                            .map(|d| d.name().to_string())
                            .collect(),
                        fitting: fit.iter().map(|f| f.1).sum(),
                        fitting_types: fit.len() as u32,
                        abbey: abbey_held && Dir::ALL.into_iter().all(|d| b.is_occupied(p.step(d))),
                    }
                })
                .collect();
            let dead = needs.iter().any(|c| c.fitting == 0 && !c.abbey);
            let tiles = if cloister {
                1
            } else {
                b.distinct_tiles(seg) + cells.len() as u32
            };
            let (owners, strength) = holders(game, seg);
            OpenFeature {
                feature: feature_ref(game, seg),
                owners,
                strength,
                worth_now: game.final_feature_value(seg, 0),
                worth_completed: game
                    .completed_worth(if cloister { seg } else { b.find(seg) }, tiles),
                needs,
                dead,
                chance: 0.0,
            }
        })
        .collect();
    let watched: Vec<Watched> = open
        .iter()
        .map(|&(seg, cloister)| Watched { seg, cloister })
        .collect();
    let est = estimate::estimate(b, &watched, first, pool, samples, seed, split);
    for (f, c) in features.iter_mut().zip(est.completed) {
        f.chance = if f.dead { 0.0 } else { c };
    }
    (
        features,
        ChanceMethod {
            futures: est.futures,
            exact: est.exact,
            seed,
        },
    )
}

// ----- fields ---------------------------------------------------------------------------

fn fields(game: &Game) -> Vec<FieldOutlook> {
    let b = game.board();
    let mut seen: Vec<u16> = Vec::new();
    let mut cities: Vec<u16> = Vec::new();
    let mut out: Vec<(Pos, FieldOutlook)> = Vec::new();
    for (ti, pt) in b.tiles().iter().enumerate() {
        for (i, f) in pt.tile_type().features.iter().enumerate() {
            if f.kind != FeatureKind::Field {
                continue;
            }
            let seg = b.seg(ti, i);
            let root = b.find(seg);
            if seen.contains(&root) {
                continue;
            }
            seen.push(root);
            b.field_cities(root, &mut cities);
            let mut done: Vec<u16> = cities
                .iter()
                .copied()
                .filter(|c| b.open_sides(*c) == 0)
                .collect();
            done.sort_by_key(|c| b.smallest_pos(*c));
            if done.is_empty() && b.figures_in(root) == 0 {
                continue;
            }
            let (owners, strength) = holders(game, root);
            out.push((
                b.smallest_pos(root),
                FieldOutlook {
                    feature: feature_ref(game, root),
                    owners,
                    strength,
                    cities: done.iter().map(|c| feature_ref(game, *c)).collect(),
                    worth: expansions::final_value(FeatureKind::Field, 0, 0, 0, done.len() as u32),
                },
            ));
        }
    }
    out.sort_by_key(|x| x.0);
    out.into_iter().map(|x| x.1).collect()
}
