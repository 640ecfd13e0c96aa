//! Abbey & Mayor: the abbey (placed into a hole instead of drawing, and in a final round
//! after the last tile), the mayor (strength by pennants), the wagon (moves on when its
//! feature is scored) and the barn (on a corner where four fields meet; farmers score into
//! it, and it scores 4 per completed city at the end).

use super::prelude::*;

/// Final points per completed city for each barn (Abbey & Mayor).
pub const BARN_POINTS_PER_CITY: i32 = 4;

/// Abbey & Mayor's share of final scoring, read from one of its effects: a barn's points.
pub(crate) fn end_scoring_points(e: &Effect) -> Vec<(u8, i32)> {
    match e {
        Effect::BarnScored { player, points, .. } => vec![(*player, *points)],
        _ => Vec::new(),
    }
}

/// The state of Abbey & Mayor, held by a game with this expansion only.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct AbbeyState {
    /// Freed wagons waiting for their owners' decisions, in order, with the cell they
    /// stood on.
    wagons: Vec<(u8, Pos)>,
    /// The segment of the barn placed in this turn part.
    barn_placed: Option<u16>,
    /// Players still to be asked in the final abbey round.
    final_queue: Vec<u8>,
}

impl AbbeyState {
    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.wagons.capacity() * std::mem::size_of::<(u8, Pos)>() + self.final_queue.capacity()
    }
}

impl Table {
    /// Wagons freed by a scoring and waiting for their owners' decisions, with the cell
    /// each stood on (Abbey & Mayor). They are neither on the board nor in a supply.
    pub fn freed_wagons(&self) -> &[(u8, Pos)] {
        self.abbey_mayor.as_deref().map_or(&[], |a| &a.wagons)
    }

    /// The owner of the wagon whose move is pending.
    pub(crate) fn wagon_decider(&self) -> Option<u8> {
        self.freed_wagons().first().map(|w| w.0)
    }

    /// The pending wagon moved or went home.
    pub(crate) fn pop_wagon(&mut self) {
        if let Some(a) = self.abbey_mayor.as_deref_mut() {
            if !a.wagons.is_empty() {
                a.wagons.remove(0);
            }
        }
    }

    /// Wagons freed by a scoring wait for their owners (`freed` in turn order). Without
    /// Abbey & Mayor there are none.
    pub(crate) fn queue_freed_wagons(&mut self, freed: &[(u8, Pos)]) {
        if let Some(a) = self.abbey_mayor.as_deref_mut() {
            a.wagons.extend_from_slice(freed);
        }
    }

    /// Stage *wagons*: freed wagons move one by one (a wagon with nowhere to go returns at
    /// once). Returns true when a wagon's move is pending.
    pub(crate) fn wagons_stage(&mut self, sink: &mut impl EffectSink) -> bool {
        while let Some(&(owner, from)) = self.freed_wagons().first() {
            if self.has_wagon_target() {
                self.phase = Phase::MoveWagon;
                return true;
            }
            self.pop_wagon();
            self.players[owner as usize].supply[FigureKind::Wagon as usize] += 1;
            if sink.enabled() {
                sink.push(Effect::FigureReturned {
                    player: owner,
                    figure: FigureKind::Wagon,
                    x: from.x,
                    y: from.y,
                    spot: String::new(),
                });
            }
        }
        false
    }

    /// A player leaves: their freed wagons go home and they are not asked in the final
    /// abbey round.
    pub(crate) fn abbey_player_leaves(&mut self, player: u8) {
        let Some(a) = self.abbey_mayor.as_deref_mut() else {
            return;
        };
        let before = a.wagons.len();
        a.wagons.retain(|w| w.0 != player);
        let dropped = (before - a.wagons.len()) as u8;
        a.final_queue.retain(|p| *p != player);
        self.players[player as usize].supply[FigureKind::Wagon as usize] += dropped;
    }

    /// Scoring: the figure `i` of a scored feature is a wagon whose owner plays on, so it
    /// leaves the board freed, to move on by its owner's decision (noted in `freed` with
    /// the cell it stood on). Returns false for any other figure.
    #[inline]
    pub(crate) fn free_wagon(
        &mut self,
        i: usize,
        freed: &mut Vec<(u8, Pos)>,
        sink: &mut impl EffectSink,
    ) -> bool {
        let f = self.board.figures[i];
        if f.kind != FigureKind::Wagon || !self.players[f.owner as usize].active {
            return false;
        }
        let pos = self.board.tiles()[self.board.seg_tile(f.seg)].pos;
        if sink.enabled() {
            sink.push(Effect::WagonFreed {
                player: f.owner,
                x: pos.x,
                y: pos.y,
            });
        }
        self.board.remove_figure(i);
        freed.push((f.owner, pos));
        true
    }

    /// The game ends: every freed wagon goes home.
    pub(crate) fn wagons_home(&mut self) {
        let Some(a) = self.abbey_mayor.as_deref_mut() else {
            return;
        };
        for (owner, _) in std::mem::take(&mut a.wagons) {
            self.players[owner as usize].supply[FigureKind::Wagon as usize] += 1;
        }
    }

    /// The barn placed in this turn part (its farmers score 3 per city).
    pub(crate) fn note_barn(&mut self, seg: u16) {
        if let Some(a) = self.abbey_mayor.as_deref_mut() {
            a.barn_placed = Some(seg);
        }
    }

    fn barn_placed(&self) -> Option<u16> {
        self.abbey_mayor.as_deref().and_then(|a| a.barn_placed)
    }

    /// The turn part's scoring is over: its barn is an old one now.
    pub(crate) fn forget_barn(&mut self) {
        if let Some(a) = self.abbey_mayor.as_deref_mut() {
            a.barn_placed = None;
        }
    }

    /// After the last tile: each player holding an abbey may place it, starting left of
    /// `last` and ending with them. Returns false without Abbey & Mayor.
    pub(crate) fn start_final_abbey_round(&mut self, last: u8) -> bool {
        let n = self.players.len() as u8;
        let Some(a) = self.abbey_mayor.as_deref_mut() else {
            return false;
        };
        a.final_queue = (1..=n).map(|k| (last + k) % n).collect();
        true
    }

    /// Stage *start*: a player holding their abbey, with a hole on the board, chooses
    /// between placing it and drawing a tile. Returns whether that choice is pending.
    #[inline]
    pub(crate) fn abbey_or_draw(&mut self) -> bool {
        if self.players[self.current as usize].abbey && self.has_hole() {
            self.phase = Phase::AbbeyOrDraw;
            return true;
        }
        false
    }

    /// Stage *final abbey*: the next player of the final abbey round who may place their
    /// abbey becomes the current player and decides. Returns false when the round is over
    /// (or without Abbey & Mayor).
    #[inline]
    pub(crate) fn ask_final_abbey(&mut self) -> bool {
        if let Some(p) = self.next_final_abbey_player() {
            self.current = p;
            self.phase = Phase::FinalAbbey;
            return true;
        }
        false
    }

    /// The next player of the final abbey round who may place their abbey.
    fn next_final_abbey_player(&mut self) -> Option<u8> {
        loop {
            let a = self.abbey_mayor.as_deref_mut()?;
            if a.final_queue.is_empty() {
                return None;
            }
            let p = a.final_queue.remove(0);
            let pl = &self.players[p as usize];
            if pl.active && pl.abbey && self.has_hole() {
                return Some(p);
            }
        }
    }

    /// Is there an empty cell with tiles on all four sides?
    pub fn has_hole(&self) -> bool {
        debug_assert_eq!(self.board.has_hole(), !self.holes().is_empty());
        self.board.has_hole()
    }

    /// Empty cells with tiles on all four sides (where an abbey may go).
    pub fn holes(&self) -> Vec<Pos> {
        let mut v: Vec<Pos> = self
            .board
            .frontier()
            .iter()
            .map(|f| f.pos)
            .filter(|p| {
                crate::geometry::Dir::ALL
                    .iter()
                    .all(|d| self.board.is_occupied(p.step(*d)))
            })
            .collect();
        v.sort();
        v
    }

    /// May the pending wagon move onto segment `seg`?
    pub(crate) fn wagon_target_ok(&self, seg: u16) -> bool {
        let Some(&(_, from)) = self.freed_wagons().first() else {
            return false;
        };
        let at = self.board.tiles()[self.board.seg_tile(seg)].pos;
        (at.x - from.x).abs() <= 1
            && (at.y - from.y).abs() <= 1
            && expansions::figure_allowed(
                self.expansions,
                FigureKind::Wagon,
                self.board.seg_kind(seg),
            )
            && !self.board.is_complete(seg)
            && self.board.figures_in(seg) == 0
    }

    /// Has the pending wagon anywhere to go?
    pub(crate) fn has_wagon_target(&self) -> bool {
        let Some(&(_, from)) = self.freed_wagons().first() else {
            return false;
        };
        let mut cells = [from; 9];
        cells[1..].copy_from_slice(&from.surrounding());
        cells.iter().any(|p| {
            self.board.tile_index_at(*p).is_some_and(|j| {
                (0..self.board.tiles()[j].tile_type().features.len())
                    .any(|i| self.wagon_target_ok(self.board.seg(j, i)))
            })
        })
    }

    /// Where the pending wagon may move: (cell, spot name, segment), the features on the
    /// wagon's tile and the 8 around it that are roads, cities or monasteries, incomplete
    /// and unoccupied.
    pub fn wagon_targets(&self) -> Vec<(Pos, String, u16)> {
        let mut out = Vec::new();
        let Some(&(owner, from)) = self.freed_wagons().first() else {
            return out;
        };
        let _ = owner;
        let mut cells = [from; 9];
        cells[1..].copy_from_slice(&from.surrounding());
        cells.sort();
        for p in cells {
            let Some(j) = self.board.tile_index_at(p) else {
                continue;
            };
            let pt = self.board.tiles()[j];
            let tt = pt.tile_type();
            for (i, f) in tt.features.iter().enumerate() {
                if !expansions::figure_allowed(self.expansions, FigureKind::Wagon, f.kind) {
                    continue;
                }
                let seg = self.board.seg(j, i);
                if self.board.is_complete(seg) || self.board.figures_in(seg) > 0 {
                    continue;
                }
                out.push((p, tt.spot_name(tt.canonical_spot(pt.rotation, i)), seg));
            }
        }
        out
    }

    /// May the active player put their barn on corner `c` of placed tile `ti`? Returns
    /// the field segment it would stand in.
    pub(crate) fn barn_check(&self, ti: usize, c: u8) -> Result<u16, PlayError> {
        barn_check_on(self, &self.board, ti, c)
    }

    /// Hook *features scored*: farmers of a field that got a barn this part score 3 per
    /// city; farmers joined to a barn field by the tile at `ti` score 1 per city; then they
    /// go home.
    pub(crate) fn score_barn_fields(&mut self, ti: usize, sink: &mut impl EffectSink) {
        let tt = self.board.tiles()[ti].tile_type();
        let mut fields = [0u16; 12];
        let mut nf = 0;
        if let Some(b) = self.barn_placed() {
            fields[0] = self.board.find(b);
            nf = 1;
        }
        for (i, f) in tt.features.iter().enumerate() {
            if f.kind == FeatureKind::Field && nf < fields.len() {
                let root = self.board.find(self.board.seg(ti, i));
                if !fields[..nf].contains(&root) {
                    fields[nf] = root;
                    nf += 1;
                }
            }
        }
        // the fields holding barns (one barn per player), when a field here has figures
        let mut barns = [0u16; 8];
        let mut nb = 0;
        if fields[..nf].iter().any(|r| self.board.figures_in(*r) > 0) {
            for f in &self.board.figures {
                if f.kind == FigureKind::Barn && nb < barns.len() {
                    barns[nb] = self.board.find(f.seg);
                    nb += 1;
                }
            }
        }
        if nb == 0 {
            nf = 0;
        }
        let mut cities = Vec::new();
        for (k, &root) in fields[..nf].iter().enumerate() {
            let barn_here = barns[..nb].contains(&root);
            let farmers = self
                .board
                .figures
                .iter()
                .any(|f| f.kind.is_follower() && self.board.find(f.seg) == root);
            if !barn_here || !farmers {
                continue;
            }
            let done = self.board.completed_cities(root, &mut cities) as i32;
            let placed_now = k == 0 && self.barn_placed().is_some();
            let per_city = if placed_now { 3 } else { 1 };
            self.award(
                root,
                FeatureKind::Field,
                per_city * done,
                expansions::PIG_BONUS_PER_CITY * done,
                false,
                1000 + k as u16,
                sink,
            );
            let mut i = 0;
            while i < self.board.figures.len() {
                let f = self.board.figures[i];
                if (f.kind.is_follower() || f.kind == FigureKind::Pig)
                    && self.board.find(f.seg) == root
                {
                    self.return_figure(i, sink);
                } else {
                    i += 1;
                }
            }
        }
    }

    /// Hook *final scoring*: every barn scores 4 per completed city of its field.
    pub(crate) fn score_barns(&mut self, cities: &mut Vec<u16>, sink: &mut impl EffectSink) {
        let barns: Vec<(u8, u16)> = self
            .board
            .figures
            .iter()
            .filter(|f| f.kind == FigureKind::Barn)
            .map(|f| (f.owner, f.seg))
            .collect();
        for (owner, seg) in barns {
            let done = self.board.completed_cities(seg, cities) as i32;
            let points = BARN_POINTS_PER_CITY * done;
            self.grant(owner, points, 0, sink);
            if sink.enabled() {
                sink.push(Effect::BarnScored {
                    player: owner,
                    points,
                    tiles: self.board.feature_positions(seg),
                });
            }
        }
    }
}

/// Barn placement (Abbey & Mayor): on corner `c` of the placed tile `ti` of `board`, where
/// four tiles meet with fields only, in a field without a barn.
fn barn_check_on(g: &Table, board: &Board, ti: usize, c: u8) -> Result<u16, PlayError> {
    if !g.expansions.contains(Expansion::AbbeyMayor) {
        return Err(PlayError::FigureNotAllowed {
            figure: "barn",
            feature: "field",
        });
    }
    let pt = board.tiles()[ti];
    for (q, qc) in crate::geometry::corner_cells(pt.pos, c) {
        let o = board.tile_at(q).ok_or(PlayError::BarnNotAllowed(
            "four tiles must meet at the corner",
        ))?;
        let f = o
            .tile_type()
            .feature_at(o.rotation, Spot::Corner(qc))
            .filter(|f| o.tile_type().features[*f].kind == FeatureKind::Field);
        if f.is_none() {
            return Err(PlayError::BarnNotAllowed(
                "all four corner areas must be field",
            ));
        }
    }
    let fi = pt
        .tile_type()
        .feature_at(pt.rotation, Spot::Corner(c))
        .ok_or(PlayError::BarnNotAllowed(
            "all four corner areas must be field",
        ))?;
    let seg = board.seg(ti, fi);
    let root = board.find(seg);
    if board
        .figures
        .iter()
        .any(|f| f.kind == FigureKind::Barn && board.find(f.seg) == root)
    {
        return Err(PlayError::BarnNotAllowed("the field already has a barn"));
    }
    if g.players[g.current as usize].supply[FigureKind::Barn as usize] == 0 {
        return Err(PlayError::NoFigureLeft("barn"));
    }
    Ok(seg)
}

/// The abbey tile, for its description.
pub(crate) fn describe_abbey(w: &mut crate::tile_words::Words) {
    w.shape("abbey");
}

/// A road that passes under a city (the tunnel tile), for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.features.iter().any(|f| f.passes_under_city) {
        w.extra("tunnel");
    }
}

/// Abbey & Mayor's decisions: the abbey (placed, or the tile drawn instead, or kept in
/// the final round), the freed wagons' moves, and barns in the figure phase.
pub(crate) struct AbbeyMayor;

impl Hooks for AbbeyMayor {
    /// The mayor, the wagon and the barn (house rules `mayor`, `wagon`, `barn`).
    fn figures(&self, set: ExpansionSet, rules: &HouseRules, supply: &mut [u8; FigureKind::COUNT]) {
        if set.contains(Expansion::AbbeyMayor) {
            for (kind, on) in [
                (FigureKind::Mayor, rules.mayor.on()),
                (FigureKind::Wagon, rules.wagon.on()),
                (FigureKind::Barn, rules.barn.on()),
            ] {
                if on {
                    supply[kind as usize] = 1;
                }
            }
        }
    }

    /// A wagon whose owner plays on is freed, to move on.
    #[inline]
    fn figure_freed(
        &self,
        t: &mut Table,
        i: usize,
        freed: &mut Vec<(u8, Pos)>,
        sink: &mut impl EffectSink,
    ) -> bool {
        t.free_wagon(i, freed, sink)
    }

    /// The freed wagons wait for their owners.
    fn figures_freed(&self, t: &mut Table, freed: &[(u8, Pos)]) {
        t.queue_freed_wagons(freed);
    }

    fn heap_bytes(&self, t: &Table) -> usize {
        t.abbey_mayor.as_deref().map_or(0, |a| a.heap_bytes())
    }

    /// Each player's abbey tile.
    fn tiles_beside_pile(&self, set: ExpansionSet, players: u8) -> (usize, usize) {
        if !set.contains(Expansion::AbbeyMayor) {
            return (0, 0);
        }
        let abbey_features = crate::catalog::catalog()
            .iter()
            .find(|(_, t)| t.not_in_draw_pile && t.edges[0] == crate::catalog::EdgeKind::Abbey)
            .map_or(0, |(_, t)| t.features.len());
        (players as usize, players as usize * abbey_features)
    }

    /// Each player holds an abbey; no wagon is freed yet.
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::AbbeyMayor) {
            t.abbey_mayor = Some(Box::default());
            for p in &mut t.players {
                p.abbey = true;
            }
        }
    }

    /// A player holding their abbey, with a hole on the board, chooses between placing it
    /// and drawing a tile.
    #[inline]
    fn ask_before_draw(&self, t: &mut Table) -> bool {
        t.abbey_or_draw()
    }

    /// Every freed wagon goes home.
    fn game_cut_short(&self, t: &mut Table) {
        t.wagons_home();
    }
}

impl Decisions for AbbeyMayor {
    const PHASES: &'static [Phase] = &[
        Phase::AbbeyOrDraw,
        Phase::FinalAbbey,
        Phase::MoveWagon,
        Phase::PlaceFigure,
    ];

    fn player_leaves(&self, t: &mut Table, player: u8) {
        t.abbey_player_leaves(player);
    }

    /// A freed wagon's owner left while deciding its move: the next wagon. The active
    /// player left while choosing between the abbey and a tile: the next player's turn. In
    /// the final abbey round: the next player of the round.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        let current = player == t.current;
        Some(match t.phase {
            Phase::MoveWagon if deciding => Some(Stage::Wagons),
            Phase::AbbeyOrDraw if current => {
                t.reset_builder();
                t.advance_player();
                Some(Stage::Start)
            }
            Phase::FinalAbbey if current => Some(Stage::FinalAbbey),
            // another player decides a wagon move; the turn ends after it
            Phase::MoveWagon | Phase::AbbeyOrDraw | Phase::FinalAbbey => None,
            _ => return None,
        })
    }

    /// The barn, on the corners where it may go.
    fn corner_figures(
        &self,
        t: &Table,
        board: &Board,
        ti: usize,
        f: &mut impl FnMut(Spot, FigureKind),
    ) {
        for c in 0..4u8 {
            if barn_check_on(t, board, ti, c).is_ok() {
                f(Spot::Corner(c), FigureKind::Barn);
            }
        }
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        match t.phase {
            Phase::AbbeyOrDraw | Phase::FinalAbbey => {
                out.extend(
                    t.holes()
                        .into_iter()
                        .map(|p| Action::PlaceAbbey { x: p.x, y: p.y }),
                );
                out.push(if t.phase == Phase::AbbeyOrDraw {
                    Action::DrawTile
                } else {
                    Action::Pass
                });
            }
            Phase::MoveWagon => {
                out.extend(
                    t.wagon_targets()
                        .into_iter()
                        .map(|(p, spot, _)| Action::MoveWagon {
                            x: p.x,
                            y: p.y,
                            spot,
                        }),
                );
                out.push(Action::Pass);
            }
            Phase::PlaceFigure => {
                if let Some(ti) = t.placed {
                    for c in 0..4u8 {
                        if t.barn_check(ti, c).is_ok() {
                            out.push(Action::PlaceFigure {
                                figure: FigureKind::Barn,
                                spot: crate::geometry::CORNERS[c as usize].to_string(),
                            });
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn decider(&self, t: &Table) -> Option<u8> {
        match t.phase {
            Phase::MoveWagon => t.wagon_decider(),
            _ => None,
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        player: u8,
        action: &Action,
        _sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        Some(match (t.phase, action) {
            (Phase::AbbeyOrDraw | Phase::FinalAbbey, Action::PlaceAbbey { x, y }) => {
                t.place_abbey(player, Pos::new(*x, *y))
            }
            (Phase::AbbeyOrDraw, Action::DrawTile) => Ok((Done::AsPosted, Some(Stage::Draw))),
            (Phase::FinalAbbey, Action::Pass) => {
                Ok((Done::Declined(Declined::Abbey), Some(Stage::FinalAbbey)))
            }
            (Phase::MoveWagon, Action::MoveWagon { x, y, spot }) => {
                t.move_wagon(player, Pos::new(*x, *y), spot)
            }
            (Phase::MoveWagon, Action::Pass) => {
                t.players[player as usize].supply[FigureKind::Wagon as usize] += 1;
                t.pop_wagon();
                Ok((Done::Declined(Declined::Wagon), Some(Stage::Wagons)))
            }
            (
                Phase::PlaceFigure,
                Action::PlaceFigure {
                    figure: FigureKind::Barn,
                    spot,
                },
            ) => t.place_barn(player, spot),
            _ => return None,
        })
    }
}

impl Table {
    /// The player's abbey goes into the hole at `pos`: the tile of this turn part, with
    /// the figure phase next.
    fn place_abbey(&mut self, player: u8, pos: Pos) -> Result<Decided, PlayError> {
        if !self.players[player as usize].abbey {
            return Err(PlayError::NoFigureLeft("abbey"));
        }
        let hole = !self.board.is_occupied(pos)
            && crate::geometry::Dir::ALL
                .iter()
                .all(|d| self.board.is_occupied(pos.step(*d)));
        if !hole {
            return Err(PlayError::NotAHole { x: pos.x, y: pos.y });
        }
        let abbey = crate::catalog::catalog()
            .iter()
            .find(|(_, t)| t.not_in_draw_pile && t.edges[0] == crate::catalog::EdgeKind::Abbey)
            .map(|(i, _)| i)
            .ok_or(PlayError::NoFigureLeft("abbey"))?;
        self.players[player as usize].abbey = false;
        let idx = self.board.place(abbey, pos, crate::geometry::Rotation::R0);
        self.placed = Some(idx);
        self.part_tile = Some(idx);
        self.drop_magic_symbol();
        self.cancel_builder();
        Ok((Done::AsPosted, Some(Stage::Figure)))
    }

    /// The pending freed wagon moves onto the feature `spot` names at `pos`.
    fn move_wagon(&mut self, player: u8, pos: Pos, spot: &str) -> Result<Decided, PlayError> {
        let seg = self.feature_seg_at(pos, spot)?;
        if !self.wagon_target_ok(seg) {
            return Err(PlayError::WagonOutOfReach);
        }
        self.board.add_figure(player, FigureKind::Wagon, seg);
        self.pop_wagon();
        Ok((Done::Spot(seg), Some(Stage::Wagons)))
    }

    /// A barn on the corner `spot` of the tile just placed.
    fn place_barn(&mut self, player: u8, spot: &str) -> Result<Decided, PlayError> {
        let ti = self.placed.ok_or(PlayError::GameOver)?;
        let c = match Spot::parse_compass(spot) {
            Some(Spot::Corner(c)) => c,
            _ => return Err(PlayError::UnknownSpot(spot.to_string())),
        };
        let seg = self.barn_check(ti, c)?;
        self.board.add_figure_at(player, FigureKind::Barn, seg, c);
        self.players[player as usize].supply[FigureKind::Barn as usize] -= 1;
        self.note_barn(seg);
        let corner = crate::geometry::CORNERS[c as usize];
        let done = if spot == corner {
            Done::AsPosted
        } else {
            Done::As(Action::PlaceFigure {
                figure: FigureKind::Barn,
                spot: corner.to_string(),
            })
        };
        Ok((done, Some(Stage::Ferries)))
    }
}
