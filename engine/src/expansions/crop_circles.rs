//! Crop Circles: after a crop-circle tile, the active player chooses to add or to
//! remove; then every player with a follower of the circle's role adds one beside it or
//! takes one back, in turn order.

use super::prelude::*;

pub use crate::action::CropMode;

/// A crop-circle action under way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crop {
    /// The role the circle names: road (club), city (shield) or field (pitchfork).
    pub role: FeatureKind,
    pub mode: Option<CropMode>,
    /// Players still to act, in order; the head decides.
    pub queue: Vec<u8>,
}

impl Table {
    /// The player whose crop-circle decision is pending.
    pub(crate) fn crop_decider(&self) -> Option<u8> {
        self.crop.as_ref().and_then(|c| c.queue.first().copied())
    }

    /// The crop-circle action under way adds followers (else it removes them).
    pub(crate) fn crop_adds(&self) -> bool {
        self.crop.as_ref().and_then(|c| c.mode) == Some(CropMode::Add)
    }

    /// A player leaves: they are not asked in the crop-circle round.
    pub(crate) fn crop_player_leaves(&mut self, player: u8) {
        if let Some(c) = self.crop.as_mut() {
            c.queue.retain(|p| *p != player);
        }
    }

    /// The crop-circle action is dropped (the active player left before choosing).
    pub(crate) fn drop_crop(&mut self) {
        self.crop = None;
    }

    /// Starts the crop-circle action if tile `ti` (placed this part) has a circle.
    pub(crate) fn start_crop_circle(&mut self, ti: usize) -> bool {
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
        self.crop = Some(Crop {
            role,
            mode: None,
            queue: Vec::new(),
        });
        self.phase = Phase::CropMode;
        true
    }

    /// The active player chooses to add or to remove; the round goes on (the stage
    /// returned).
    pub(crate) fn choose_crop_mode(&mut self, mode: CropMode) -> Stage {
        let n = self.players.len() as u8;
        let cur = self.current;
        if let Some(c) = self.crop.as_mut() {
            c.mode = Some(mode);
            c.queue = (1..=n).map(|k| (cur + k) % n).collect();
        }
        Stage::Crop
    }

    /// The next player with a follower of the circle's role acts; players who cannot
    /// (no such follower, or adding with an empty supply) are skipped.
    /// Stage *crop*: true when that player's decision is pending.
    pub(crate) fn next_crop_player(&mut self) -> bool {
        while let Some(head) = self.crop.as_ref().and_then(|c| c.queue.first().copied()) {
            if self.players[head as usize].active && self.has_crop_option(head) {
                self.phase = Phase::CropAction;
                return true;
            }
            if let Some(c) = self.crop.as_mut() {
                c.queue.remove(0);
            }
        }
        self.crop = None;
        false
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
    pub(crate) fn has_crop_option(&self, p: u8) -> bool {
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
    ) -> Result<Stage, PlayError> {
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
        Ok(Stage::Crop)
    }

    pub(crate) fn crop_pass(&mut self) -> Result<Stage, PlayError> {
        if self.crop.as_ref().and_then(|c| c.mode) != Some(CropMode::Add) {
            return Err(PlayError::CropNotAllowed);
        }
        if let Some(c) = self.crop.as_mut() {
            c.queue.remove(0);
        }
        Ok(Stage::Crop)
    }
}

/// The crop circle, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    w.extra_if(tile, FeatureKind::CropCircle, "crop-circle");
}

/// Crop Circles' decisions: add or remove, then each player's addition (or pass) or
/// removal.
pub(crate) struct CropCircles;

impl Hooks for CropCircles {
    fn heap_bytes(&self, t: &Table) -> usize {
        t.crop.as_ref().map_or(0, |c| c.queue.capacity())
    }
}

impl Decisions for CropCircles {
    const PHASES: &'static [Phase] = &[Phase::CropMode, Phase::CropAction];

    fn player_leaves(&self, t: &mut Table, player: u8) {
        t.crop_player_leaves(player);
    }

    /// The active player left before choosing the mode: no crop-circle action. The
    /// player asked in the round left: the next one.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        let current = player == t.current;
        Some(match t.phase {
            Phase::CropAction if deciding => Some(Stage::Crop),
            Phase::CropMode if current => {
                t.drop_crop();
                Some(Stage::CropCircle)
            }
            Phase::CropMode | Phase::CropAction => None,
            _ => return None,
        })
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        match t.phase {
            Phase::CropMode => out.extend([
                Action::ChooseCropMode {
                    mode: CropMode::Add,
                },
                Action::ChooseCropMode {
                    mode: CropMode::Remove,
                },
            ]),
            Phase::CropAction => {
                let p = t.crop_decider().unwrap_or(t.current);
                let add = t.crop_adds();
                out.extend(t.crop_options(p).into_iter().map(|(figure, seg)| {
                    let ti = t.board.seg_tile(seg);
                    let pos = t.board.tiles()[ti].pos;
                    let spot = t.spot_name_of(seg);
                    if add {
                        Action::AddFollower {
                            figure,
                            x: pos.x,
                            y: pos.y,
                            spot,
                        }
                    } else {
                        Action::RemoveFollower {
                            figure,
                            x: pos.x,
                            y: pos.y,
                            spot,
                        }
                    }
                }));
                if add {
                    out.push(Action::Pass);
                }
            }
            _ => {}
        }
    }

    fn decider(&self, t: &Table) -> Option<u8> {
        match t.phase {
            Phase::CropAction => t.crop_decider(),
            _ => None,
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        player: u8,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        Some(match (t.phase, action) {
            (Phase::CropMode, Action::ChooseCropMode { mode }) => {
                let next = t.choose_crop_mode(*mode);
                Ok((Done::AsPosted, Some(next)))
            }
            (
                Phase::CropAction,
                Action::AddFollower { figure, x, y, spot }
                | Action::RemoveFollower { figure, x, y, spot },
            ) => {
                let add = matches!(action, Action::AddFollower { .. });
                t.feature_seg_at(Pos::new(*x, *y), spot).and_then(|seg| {
                    t.crop_act(player, *figure, seg, add, sink)
                        .map(|next| (Done::Spot(seg), Some(next)))
                })
            }
            (Phase::CropAction, Action::Pass) => t
                .crop_pass()
                .map(|next| (Done::Declined(Declined::Crop), Some(next))),
            _ => return None,
        })
    }
}
