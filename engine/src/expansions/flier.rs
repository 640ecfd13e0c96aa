//! Flying Machines: instead of placing a figure, a follower flies in the direction of
//! the tile's machine; the die decides how far, and it lands on a feature of that tile.

use super::prelude::*;
use crate::rules::FlierLanding;

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

/// A figure in flight (Flying Machines) and the tile (index) it must land on.
pub type Flight = (FigureKind, usize);

impl Table {
    /// The flight is dropped (the active player left before landing).
    pub(crate) fn drop_flight(&mut self) {
        self.flight = None;
    }

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

    /// House rule `flier_landing = optional`: the player may keep the flying follower in
    /// the supply instead of landing.
    pub fn landing_optional(&self) -> bool {
        self.rules.flier_landing == FlierLanding::Optional
    }

    /// The flying follower stays in the supply (only with `flier_landing = optional`).
    pub(crate) fn skip_landing(&mut self) {
        self.flight = None;
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
}

/// Landing options for a figure of kind `k` on tile `j`: incomplete roads, cities and
/// monasteries (gardens for the abbot) the figure may stand on, occupied or not.
fn landing_options(board: &Board, g: &Table, k: FigureKind, j: usize) -> Vec<(String, u16)> {
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

/// The flying machine, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    w.extra_if(tile, FeatureKind::FlyingMachine, "flying-machine");
}

/// Flying Machines' decisions: in the figure phase, send a follower flying; then land
/// it (or, by the house rule, keep it).
pub(crate) struct FlyingMachines;

impl Hooks for FlyingMachines {}

impl Decisions for FlyingMachines {
    const PHASES: &'static [Phase] = &[Phase::PlaceFigure, Phase::FlierLanding];

    /// The active player left before the flier landed: on to scoring.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        _deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        if t.phase != Phase::FlierLanding {
            return None;
        }
        Some((player == t.current).then(|| t.figure_given_up()))
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        match t.phase {
            Phase::PlaceFigure => {
                out.extend(t.flyable().into_iter().map(|figure| Action::Fly { figure }));
            }
            Phase::FlierLanding => {
                out.extend(
                    t.landings()
                        .into_iter()
                        .map(|(spot, _)| Action::Land { spot }),
                );
                if t.landing_optional() {
                    out.push(Action::Pass);
                }
            }
            _ => {}
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        _player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        Some(match (t.phase, action) {
            (Phase::PlaceFigure, Action::Fly { figure }) => {
                t.fly(*figure, sink).map(|lands| {
                    if lands {
                        t.phase = Phase::FlierLanding;
                        (Done::AsPosted, None)
                    } else {
                        // nowhere to land: the follower stays home and no figure is placed
                        (Done::AsPosted, Some(Stage::Ferries))
                    }
                })
            }
            (Phase::FlierLanding, Action::Pass) if t.landing_optional() => {
                t.skip_landing();
                Ok((Done::Declined(Declined::Landing), Some(Stage::Ferries)))
            }
            (Phase::FlierLanding, Action::Land { spot }) => t
                .land(spot)
                .map(|(_, seg)| (Done::Spot(seg), Some(Stage::Ferries))),
            _ => return None,
        })
    }
}
