//! Gold Mines: a gold tile lays an ingot on itself and one on a tile around it; the
//! owners of a scored feature share the ingots on its tiles; at the end ingots score by
//! the value table.

use super::prelude::*;

/// Gold Mines' share of final scoring, read from one of its effects: a player's ingots.
pub(crate) fn end_scoring_points(e: &Effect) -> Vec<(u8, i32)> {
    match e {
        Effect::GoldScored { player, points, .. } => vec![(*player, *points)],
        _ => Vec::new(),
    }
}

/// Ingots per tile and the final value table (Gold Mines).
pub fn gold_points(ingots: u8) -> i32 {
    let per = match ingots {
        0 => 0,
        1..=3 => 1,
        4..=6 => 2,
        7..=9 => 3,
        _ => 4,
    };
    per * ingots as i32
}

/// Ingots on one claimable tile and who may claim them (bit per player).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoldPile {
    pub ingots: u8,
    pub claimants: u8,
    pub pos: Pos,
}

/// Gold Mines distribution: one ingot at a time, round-robin from `first` (players
/// without a claimable ingot are skipped); each takes from the claimable tile with the
/// most claimants, then the smallest position. Returns the ingots taken per player and
/// leaves what nobody could claim in `piles`.
pub fn gold_round_robin(piles: &mut [GoldPile], first: u8, players: u8) -> [u8; 8] {
    let mut taken = [0u8; 8];
    let mut p = first;
    let mut idle = 0;
    while idle < players {
        let bit = 1u8 << p;
        let best = piles
            .iter_mut()
            .filter(|c| c.claimants & bit != 0 && c.ingots > 0)
            .max_by_key(|c| (c.claimants.count_ones(), std::cmp::Reverse(c.pos)));
        match best {
            Some(c) => {
                c.ingots -= 1;
                taken[p as usize] += 1;
                idle = 0;
            }
            None => idle += 1,
        }
        p = (p + 1) % players;
    }
    taken
}

/// The state of Gold Mines, held by a game with this expansion only.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GoldState {
    /// Ingots lying on each placed tile (by tile index).
    on: Vec<u8>,
}

impl GoldState {
    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.on.capacity()
    }

    fn on(&self, ti: usize) -> u8 {
        self.on.get(ti).copied().unwrap_or(0)
    }
}

impl Table {
    pub(crate) fn put_ingot(&mut self, ti: usize, sink: &mut impl EffectSink) {
        let n = self.board.len();
        let Some(gold) = self.gold_mines.as_deref_mut() else {
            return;
        };
        if gold.on.len() < n {
            gold.on.resize(n, 0);
        }
        gold.on[ti] += 1;
        if sink.enabled() {
            let p = self.board.tiles()[ti].pos;
            sink.push(Effect::IngotLaid { x: p.x, y: p.y });
        }
    }

    /// Stage *gold*: a gold tile at `ti` lays an ingot on itself and one on a tile around
    /// it. Returns true when the active player chooses that tile.
    pub(crate) fn gold_tile_placed(&mut self, ti: usize, sink: &mut impl EffectSink) -> bool {
        if self.gold_mines.is_none()
            || self.board.tiles()[ti].tile_type().symbols & crate::catalog::symbol::GOLD == 0
        {
            return false;
        }
        self.put_ingot(ti, sink);
        let around = self.ingot_targets();
        if around.len() == 1 {
            let j = self.board.tile_index_at(around[0]).unwrap_or(ti);
            self.put_ingot(j, sink);
        } else if !around.is_empty() {
            self.phase = Phase::PlaceIngot;
            return true;
        }
        false
    }

    /// Tiles around the placed gold tile where the second ingot may go.
    pub fn ingot_targets(&self) -> Vec<Pos> {
        let Some(ti) = self.placed else {
            return Vec::new();
        };
        let p = self.board.tiles()[ti].pos;
        let mut v: Vec<Pos> = p
            .surrounding()
            .into_iter()
            .filter(|q| self.board.is_occupied(*q))
            .collect();
        v.sort();
        v
    }

    pub(crate) fn place_ingot(
        &mut self,
        pos: Pos,
        sink: &mut impl EffectSink,
    ) -> Result<Stage, PlayError> {
        if !self.ingot_targets().contains(&pos) {
            return Err(PlayError::NotAround { x: pos.x, y: pos.y });
        }
        let j = self
            .board
            .tile_index_at(pos)
            .ok_or(PlayError::NotAround { x: pos.x, y: pos.y })?;
        self.put_ingot(j, sink);
        Ok(Stage::Magic)
    }

    /// Ingots lying on the tile at `p`.
    pub fn ingots_at(&self, p: Pos) -> u8 {
        self.board
            .tile_index_at(p)
            .zip(self.gold_mines.as_deref())
            .map_or(0, |(i, gold)| gold.on(i))
    }

    /// Gold Mines: hands out the ingots on the claim tiles of the scored features, one at
    /// a time round-robin from the active player; each claimant takes from the claimable
    /// tile with the most claimants (then the smallest position).
    pub(crate) fn distribute_gold(&mut self, scored: &[(u16, u8)], sink: &mut impl EffectSink) {
        let Some(gold) = self.gold_mines.as_deref() else {
            return;
        };
        // claimants per tile index
        let mut claims: Vec<(usize, u8)> = Vec::new();
        for &(root, owners) in scored {
            if owners == 0 {
                continue;
            }
            let kind = self.board.seg_kind(root);
            let mut tiles: Vec<usize> = Vec::new();
            if kind.is_cloister() {
                let ti = self.board.seg_tile(root);
                let p = self.board.tiles()[ti].pos;
                tiles.push(ti);
                for q in p.surrounding() {
                    if let Some(j) = self.board.tile_index_at(q) {
                        tiles.push(j);
                    }
                }
            } else {
                let r = self.board.find(root);
                for m in self.board.members(r) {
                    let t = self.board.seg_tile(m);
                    if !tiles.contains(&t) {
                        tiles.push(t);
                    }
                }
            }
            for t in tiles {
                if gold.on(t) == 0 {
                    continue;
                }
                match claims.iter_mut().find(|c| c.0 == t) {
                    Some(c) => c.1 |= owners,
                    None => claims.push((t, owners)),
                }
            }
        }
        if claims.is_empty() {
            return;
        }
        let n = self.players.len() as u8;
        let mut piles: Vec<GoldPile> = claims
            .iter()
            .map(|&(t, claimants)| GoldPile {
                ingots: gold.on(t),
                claimants,
                pos: self.board.tiles()[t].pos,
            })
            .collect();
        let taken = gold_round_robin(&mut piles, self.current, n);
        if let Some(gold) = self.gold_mines.as_deref_mut() {
            for (c, pile) in claims.iter().zip(&piles) {
                gold.on[c.0] = pile.ingots;
            }
        }
        for (pl, k) in taken.iter().enumerate().take(n as usize) {
            if *k > 0 {
                self.players[pl].gold += k;
                if sink.enabled() {
                    sink.push(Effect::GoldTaken {
                        player: pl as u8,
                        ingots: *k,
                    });
                }
            }
        }
    }

    /// Gold Mines final scoring: each player's ingots by the value table.
    pub(crate) fn score_gold(&mut self, sink: &mut impl EffectSink) {
        for p in 0..self.players.len() {
            let ingots = self.players[p].gold;
            let points = gold_points(ingots);
            if points > 0 {
                self.grant(p as u8, points, 0, sink);
                if sink.enabled() {
                    sink.push(Effect::GoldScored {
                        player: p as u8,
                        ingots,
                        points,
                    });
                }
            }
        }
    }
}

/// The gold symbol, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.symbols & crate::catalog::symbol::GOLD != 0 {
        w.extra("gold");
    }
}

/// Gold Mines' decision: where the second ingot goes.
pub(crate) struct GoldMines;

impl Hooks for GoldMines {
    fn heap_bytes(&self, t: &Table) -> usize {
        t.gold_mines.as_deref().map_or(0, |g| g.heap_bytes())
    }

    /// No ingot on the board yet.
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::GoldMines) {
            t.gold_mines = Some(Box::default());
        }
    }
}

impl Decisions for GoldMines {
    const PHASES: &'static [Phase] = &[Phase::PlaceIngot];

    /// The active player left before placing the second ingot: on to scoring.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        _deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        if t.phase != Phase::PlaceIngot {
            return None;
        }
        Some((player == t.current).then(|| t.figure_given_up()))
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        if t.phase == Phase::PlaceIngot {
            out.extend(
                t.ingot_targets()
                    .into_iter()
                    .map(|p| Action::PlaceIngot { x: p.x, y: p.y }),
            );
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        _player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        match (t.phase, action) {
            (Phase::PlaceIngot, Action::PlaceIngot { x, y }) => Some(
                t.place_ingot(Pos::new(*x, *y), sink)
                    .map(|next| (Done::AsPosted, Some(next))),
            ),
            _ => None,
        }
    }
}
