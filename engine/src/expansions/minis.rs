//! The small expansions of Carcassonne Plus that change the turn between placing a tile
//! and the end of the turn part: Gold Mines (ingots), Mage & Witch (neutral figures),
//! Flying Machines (fliers) and Crop Circles (add or remove followers).

use crate::board::Board;
use crate::catalog::{symbol, FeatureKind};
use crate::event::Effect;
use crate::expansions::{self, Expansion};
use crate::figures::FigureKind;
use crate::game::{EffectSink, Game, Phase, PlayError};
use crate::geometry::{Pos, Spot};

/// The mage and the witch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MagicFigure {
    Mage,
    Witch,
}

impl MagicFigure {
    pub fn index(self) -> usize {
        match self {
            MagicFigure::Mage => 0,
            MagicFigure::Witch => 1,
        }
    }
    pub fn other(self) -> MagicFigure {
        match self {
            MagicFigure::Mage => MagicFigure::Witch,
            MagicFigure::Witch => MagicFigure::Mage,
        }
    }
    pub const BOTH: [MagicFigure; 2] = [MagicFigure::Mage, MagicFigure::Witch];
}

/// Add or remove (Crop Circles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CropMode {
    Add,
    Remove,
}

/// A crop-circle action under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crop {
    /// The role the circle names: road (club), city (shield) or field (pitchfork).
    pub role: FeatureKind,
    pub mode: Option<CropMode>,
    /// Players still to act, in order; the head decides.
    pub queue: Vec<u8>,
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

/// Cell offset of a flight direction in eighths of a turn clockwise from north.
fn direction_step(eighths: u8) -> (i32, i32) {
    match eighths & 7 {
        0 => (0, 1),
        1 => (1, 1),
        2 => (1, 0),
        3 => (1, -1),
        4 => (0, -1),
        5 => (-1, -1),
        6 => (-1, 0),
        _ => (-1, 1),
    }
}

impl Game {
    /// Hook *tile placed*, after the board took the tile: gold, magic, then the figure.
    pub(crate) fn after_tile(&mut self, sink: &mut impl EffectSink) {
        let Some(ti) = self.placed else {
            return;
        };
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        self.magic_symbol_pending =
            self.expansions.contains(Expansion::MageWitch) && tt.symbols & symbol::MAGIC != 0;
        if self.expansions.contains(Expansion::Robbers)
            && tt.symbols & symbol::ROBBER != 0
            && self.start_robbers()
        {
            return;
        }
        self.after_robbers(sink);
    }

    /// After the robbers (if any): the gold, then the magic and the figure.
    pub(crate) fn after_robbers(&mut self, sink: &mut impl EffectSink) {
        let Some(ti) = self.placed else {
            return;
        };
        if !self.players[self.current as usize].active {
            self.finish_turn(sink);
            return;
        }
        let tt = self.board.tiles()[ti].tile_type();
        if self.expansions.contains(Expansion::GoldMines) && tt.symbols & symbol::GOLD != 0 {
            self.put_ingot(ti, sink);
            let around = self.ingot_targets();
            if around.len() == 1 {
                let j = self.board.tile_index_at(around[0]).unwrap_or(ti);
                self.put_ingot(j, sink);
            } else if !around.is_empty() {
                self.phase = Phase::PlaceIngot;
                return;
            }
        }
        self.pre_figure();
    }

    fn put_ingot(&mut self, ti: usize, sink: &mut impl EffectSink) {
        if self.gold_on.len() < self.board.len() {
            self.gold_on.resize(self.board.len(), 0);
        }
        self.gold_on[ti] += 1;
        if sink.enabled() {
            let p = self.board.tiles()[ti].pos;
            sink.push(Effect::IngotLaid { x: p.x, y: p.y });
        }
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
    ) -> Result<(), PlayError> {
        if !self.ingot_targets().contains(&pos) {
            return Err(PlayError::NotAround { x: pos.x, y: pos.y });
        }
        let j = self
            .board
            .tile_index_at(pos)
            .ok_or(PlayError::NotAround { x: pos.x, y: pos.y })?;
        self.put_ingot(j, sink);
        self.pre_figure();
        Ok(())
    }

    /// Ingots lying on the tile at `p`.
    pub fn ingots_at(&self, p: Pos) -> u8 {
        self.board
            .tile_index_at(p)
            .and_then(|i| self.gold_on.get(i).copied())
            .unwrap_or(0)
    }

    /// The decisions before the figure phase: the magic symbol's move, then a meeting of
    /// the mage and the witch; otherwise the figure phase.
    pub(crate) fn pre_figure(&mut self) {
        if self.magic_symbol_pending {
            if self.has_magic_move() || self.magic.iter().any(|m| m.is_some()) {
                self.phase = Phase::MoveMagic;
                return;
            }
            self.magic_symbol_pending = false;
        }
        if self.magic_meeting() {
            self.phase = Phase::MoveMagic;
            return;
        }
        self.phase = Phase::PlaceFigure;
    }

    /// The mage and the witch stand in one feature.
    pub fn magic_meeting(&self) -> bool {
        match self.magic {
            [Some(a), Some(b)] => self.board.find(a) == self.board.find(b),
            _ => false,
        }
    }

    /// Where the mage and the witch stand (segment), `None` when set aside.
    pub fn magic_figure(&self, f: MagicFigure) -> Option<u16> {
        self.magic[f.index()]
    }

    /// May magic figure `f` move onto segment `seg`? (A road or city segment of an
    /// incomplete feature without the other figure, and not the figure's own feature; at a
    /// meeting only a figure on the board moves.)
    fn magic_dest_ok(&self, f: MagicFigure, seg: u16) -> bool {
        if !matches!(
            self.board.seg_kind(seg),
            FeatureKind::Road | FeatureKind::City
        ) {
            return false;
        }
        let own = self.magic[f.index()].map(|s| self.board.find(s));
        if own.is_none() && self.magic_meeting() {
            return false;
        }
        let other = self.magic[f.other().index()].map(|s| self.board.find(s));
        let root = self.board.find(seg);
        self.board.open_sides(seg) != 0 && Some(root) != own && Some(root) != other
    }

    /// Is any magic move possible? (Without building the list.)
    fn has_magic_move(&self) -> bool {
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
        for f in MagicFigure::BOTH {
            // at a meeting, only a figure of the shared feature moves (either one)
            let own = self.magic[f.index()].map(|s| self.board.find(s));
            let other = self.magic[f.other().index()].map(|s| self.board.find(s));
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
            .filter(|f| self.magic[f.index()].is_some())
            .filter(|_| meeting || self.magic_symbol_pending)
            .collect()
    }

    pub(crate) fn move_magic(
        &mut self,
        f: MagicFigure,
        pos: Pos,
        spot: &str,
        sink: &mut impl EffectSink,
    ) -> Result<u16, PlayError> {
        let seg = self
            .board
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
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        if !self.magic_dest_ok(f, seg) {
            return Err(PlayError::MagicNotAllowed);
        }
        self.magic[f.index()] = Some(seg);
        let _ = sink;
        self.magic_symbol_pending = false;
        self.pre_figure();
        Ok(seg)
    }

    pub(crate) fn remove_magic(
        &mut self,
        f: MagicFigure,
        sink: &mut impl EffectSink,
    ) -> Result<(), PlayError> {
        if !self.magic_removals().contains(&f) {
            return Err(PlayError::MagicNotAllowed);
        }
        self.magic[f.index()] = None;
        let _ = sink;
        self.magic_symbol_pending = false;
        self.pre_figure();
        Ok(())
    }

    /// The value of a road or city with the mage (+1 per tile) or the witch (halved,
    /// rounded up) in it.
    pub(crate) fn magic_value(&self, root: u16, value: i32, tiles: u32) -> i32 {
        let root = self.board.find(root);
        let here =
            |f: MagicFigure| self.magic[f.index()].is_some_and(|s| self.board.find(s) == root);
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
            if self.magic[f.index()].is_some_and(|s| self.board.find(s) == root) {
                self.magic[f.index()] = None;
                if sink.enabled() {
                    sink.push(Effect::MagicSetAside { figure: f });
                }
            }
        }
    }

    /// Gold Mines: hands out the ingots on the claim tiles of the scored features, one at
    /// a time round-robin from the active player; each claimant takes from the claimable
    /// tile with the most claimants (then the smallest position).
    pub(crate) fn distribute_gold(&mut self, scored: &[(u16, u8)], sink: &mut impl EffectSink) {
        if !self.expansions.contains(Expansion::GoldMines) {
            return;
        }
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
                if self.gold_on.get(t).copied().unwrap_or(0) == 0 {
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
                ingots: self.gold_on[t],
                claimants,
                pos: self.board.tiles()[t].pos,
            })
            .collect();
        let taken = gold_round_robin(&mut piles, self.current, n);
        for (c, pile) in claims.iter().zip(&piles) {
            self.gold_on[c.0] = pile.ingots;
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

    // ----- Flying Machines ------------------------------------------------------------

    /// The flying-machine direction of the placed tile (eighths, board orientation).
    pub(crate) fn flight_direction(&self) -> Option<u8> {
        if !self.expansions.contains(Expansion::FlyingMachines) {
            return None;
        }
        let pt = self.board.tiles()[self.placed?];
        let tt = pt.tile_type();
        tt.features
            .iter()
            .find_map(|f| f.direction)
            .map(|d| (d + 2 * pt.rotation.quarters()) & 7)
    }

    /// Follower kinds the current player may send flying.
    pub fn flyable(&self) -> Vec<FigureKind> {
        if self.flight_direction().is_none() {
            return Vec::new();
        }
        let me = &self.players[self.current as usize];
        FigureKind::ALL
            .into_iter()
            .filter(|k| k.is_follower() && me.supply[*k as usize] > 0)
            .collect()
    }

    /// Rolls the die and flies `k`: returns whether a landing decision follows.
    pub(crate) fn fly(
        &mut self,
        k: FigureKind,
        sink: &mut impl EffectSink,
    ) -> Result<bool, PlayError> {
        if !self.flyable().contains(&k) {
            return Err(PlayError::CannotFly(k.id()));
        }
        let dir = self.flight_direction().unwrap_or(0);
        let d = 1 + self.rng.below(3) as i32;
        let from = self.board.tiles()[self.placed.unwrap_or(0)].pos;
        let (dx, dy) = direction_step(dir);
        let target = Pos::new(from.x + d * dx, from.y + d * dy);
        if sink.enabled() {
            sink.push(Effect::DieRolled {
                player: self.current,
                value: d as u8,
                x: target.x,
                y: target.y,
            });
        }
        if let Some(j) = self.board.tile_index_at(target) {
            self.flight = Some((k, j));
            if !self.landings().is_empty() {
                return Ok(true);
            }
        }
        self.flight = None;
        Ok(false)
    }

    /// Where the flying figure may land: (spot name, segment) on the target tile.
    pub fn landings(&self) -> Vec<(String, u16)> {
        let Some((k, j)) = self.flight else {
            return Vec::new();
        };
        landing_options(&self.board, self, k, j)
    }

    /// The cell the flying figure must land on.
    pub fn flight_target(&self) -> Option<Pos> {
        self.flight.map(|(_, j)| self.board.tiles()[j].pos)
    }

    pub(crate) fn land(&mut self, spot: &str) -> Result<(FigureKind, u16), PlayError> {
        let (k, j) = self.flight.ok_or(PlayError::GameOver)?;
        let pt = self.board.tiles()[j];
        let tt = pt.tile_type();
        let seg = tt
            .parse_spot(spot)
            .filter(|s| !matches!(s, Spot::Corner(_)))
            .and_then(|s| tt.feature_at(pt.rotation, s))
            .map(|i| self.board.seg(j, i))
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        if !self.landings().iter().any(|l| l.1 == seg) {
            return Err(PlayError::CannotLand(spot.to_string()));
        }
        self.board.add_figure(self.current, k, seg);
        self.players[self.current as usize].supply[k as usize] -= 1;
        self.flight = None;
        Ok((k, seg))
    }

    // ----- Crop Circles -----------------------------------------------------------------

    /// Starts the crop-circle action if tile `ti` (placed this part) has a circle.
    pub(crate) fn start_crop_circle(&mut self, ti: usize, sink: &mut impl EffectSink) -> bool {
        if !self.expansions.contains(Expansion::CropCircles)
            || !self.players[self.current as usize].active
        {
            return false;
        }
        let tt = self.board.tiles()[ti].tile_type();
        let Some(role) = tt
            .features
            .iter()
            .find(|f| f.kind == FeatureKind::CropCircle)
            .and_then(|f| f.crop_affects)
        else {
            return false;
        };
        let _ = sink;
        self.crop = Some(Crop {
            role,
            mode: None,
            queue: Vec::new(),
        });
        self.phase = Phase::CropMode;
        true
    }

    pub(crate) fn choose_crop_mode(&mut self, mode: CropMode, sink: &mut impl EffectSink) {
        let n = self.players.len() as u8;
        let cur = self.current;
        if let Some(c) = self.crop.as_mut() {
            c.mode = Some(mode);
            c.queue = (1..=n).map(|k| (cur + k) % n).collect();
        }
        self.continue_crop(sink);
    }

    /// The next player with a follower of the circle's role acts; players who cannot
    /// (no such follower, or adding with an empty supply) are skipped.
    pub(crate) fn continue_crop(&mut self, sink: &mut impl EffectSink) {
        while let Some(head) = self.crop.as_ref().and_then(|c| c.queue.first().copied()) {
            if self.players[head as usize].active && self.has_crop_option(head) {
                self.phase = Phase::CropAction;
                return;
            }
            if let Some(c) = self.crop.as_mut() {
                c.queue.remove(0);
            }
        }
        self.crop = None;
        self.end_turn_part(sink);
    }

    /// Crop options of player `p`: for Add, (figure, segment) next to each own follower of
    /// the role; for Remove, each own follower of the role (figure, segment).
    pub fn crop_options(&self, p: u8) -> Vec<(FigureKind, u16)> {
        let Some(c) = &self.crop else {
            return Vec::new();
        };
        let mut out: Vec<(FigureKind, u16)> = Vec::new();
        for f in &self.board.figures {
            if f.owner != p || !f.kind.is_follower() || f.kind == FigureKind::Abbot {
                continue;
            }
            if self.board.seg_kind(f.seg) != c.role {
                continue;
            }
            match c.mode {
                Some(CropMode::Remove) if !out.contains(&(f.kind, f.seg)) => {
                    out.push((f.kind, f.seg));
                }
                Some(CropMode::Remove) => {}
                Some(CropMode::Add) => {
                    let supply = &self.players[p as usize].supply;
                    for k in FigureKind::ALL {
                        if k.is_follower()
                            && k != FigureKind::Abbot
                            && supply[k as usize] > 0
                            && expansions::figure_allowed(self.expansions, k, c.role)
                            && !out.contains(&(k, f.seg))
                        {
                            out.push((k, f.seg));
                        }
                    }
                }
                None => {}
            }
        }
        out
    }

    /// Whether [`Game::crop_options`] of player `p` lists anything.
    fn has_crop_option(&self, p: u8) -> bool {
        let Some(c) = &self.crop else {
            return false;
        };
        let can_add = FigureKind::ALL.iter().any(|&k| {
            k.is_follower()
                && k != FigureKind::Abbot
                && self.players[p as usize].supply[k as usize] > 0
                && expansions::figure_allowed(self.expansions, k, c.role)
        });
        let any = match c.mode {
            Some(CropMode::Remove) => true,
            Some(CropMode::Add) => can_add,
            None => false,
        };
        let found = any
            && self.board.figures.iter().any(|f| {
                f.owner == p
                    && f.kind.is_follower()
                    && f.kind != FigureKind::Abbot
                    && self.board.seg_kind(f.seg) == c.role
            });
        debug_assert_eq!(found, !self.crop_options(p).is_empty());
        found
    }

    pub(crate) fn crop_act(
        &mut self,
        player: u8,
        k: FigureKind,
        seg: u16,
        add: bool,
        sink: &mut impl EffectSink,
    ) -> Result<(), PlayError> {
        let mode = self.crop.as_ref().and_then(|c| c.mode);
        if mode != Some(if add { CropMode::Add } else { CropMode::Remove }) {
            return Err(PlayError::WrongPhase {
                got: if add {
                    "add_follower"
                } else {
                    "remove_follower"
                },
                expected: "crop_action",
            });
        }
        if !self.crop_options(player).contains(&(k, seg)) {
            return Err(PlayError::CropNotAllowed);
        }
        if add {
            self.board.add_figure(player, k, seg);
            self.players[player as usize].supply[k as usize] -= 1;
        } else {
            let i = self
                .board
                .figures
                .iter()
                .position(|f| f.owner == player && f.kind == k && f.seg == seg)
                .ok_or(PlayError::CropNotAllowed)?;
            self.return_figure(i, sink);
            self.return_lonely_specials(sink);
        }
        if let Some(c) = self.crop.as_mut() {
            c.queue.remove(0);
        }
        self.continue_crop(sink);
        Ok(())
    }

    pub(crate) fn crop_pass(&mut self, sink: &mut impl EffectSink) -> Result<(), PlayError> {
        if self.crop.as_ref().and_then(|c| c.mode) != Some(CropMode::Add) {
            return Err(PlayError::CropNotAllowed);
        }
        if let Some(c) = self.crop.as_mut() {
            c.queue.remove(0);
        }
        self.continue_crop(sink);
        Ok(())
    }
}

/// Landing options for a figure of kind `k` on tile `j`: incomplete roads, cities and
/// monasteries (gardens for the abbot) the figure may stand on, occupied or not.
fn landing_options(board: &Board, g: &Game, k: FigureKind, j: usize) -> Vec<(String, u16)> {
    let pt = board.tiles()[j];
    let tt = pt.tile_type();
    let mut v = Vec::new();
    for (i, f) in tt.features.iter().enumerate() {
        if !matches!(
            f.kind,
            FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery | FeatureKind::Garden
        ) || !expansions::figure_allowed(g.expansions, k, f.kind)
        {
            continue;
        }
        let seg = board.seg(j, i);
        if board.is_complete(seg) {
            continue;
        }
        v.push((tt.spot_name(tt.canonical_spot(pt.rotation, i)), seg));
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameConfig;

    #[test]
    fn mw5_nowhere_to_go_sets_a_figure_aside() {
        // the mage on T0's road, the witch on T0's city, and no other road or city
        let (mut g, _) = Game::new(&GameConfig {
            players: 2,
            expansions: vec![Expansion::MageWitch],
            tile_order: Some(vec!["mw/05-cfcf".into()]),
            seed: 1,
        })
        .expect("set-up");
        let road = g.board.seg(0, 1);
        let city = g.board.seg(0, 0);
        g.magic = [Some(road), Some(city)];
        g.magic_symbol_pending = true;
        // a moved figure must change feature and may not join the other
        assert!(g.magic_moves().is_empty());
        assert_eq!(
            g.magic_removals(),
            vec![MagicFigure::Mage, MagicFigure::Witch]
        );
        let mut fx = Vec::new();
        g.remove_magic(MagicFigure::Witch, &mut fx)
            .expect("set aside");
        assert_eq!(g.magic, [Some(road), None]);
        assert!(!g.magic_symbol_pending);
    }
}
