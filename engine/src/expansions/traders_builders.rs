//! Traders & Builders: the builder (a second turn part when the tile extends the road or
//! city holding it), the pig (a bonus per completed city for its field's owner), and the
//! goods of completed cities (10 points per majority at the end).

use super::prelude::*;

/// Final points per goods majority (Traders & Builders).
pub const GOODS_MAJORITY_POINTS: i32 = 10;

/// Traders & Builders' share of final scoring, read from one of its effects: a goods
/// majority.
pub(crate) fn end_scoring_points(e: &Effect) -> Vec<(u8, i32)> {
    match e {
        Effect::GoodsScored { player, points, .. } => vec![(*player, *points)],
        _ => Vec::new(),
    }
}

/// Traders & Builders final scoring: for each good (wine, grain, cloth), every player with
/// the most tokens (at least one) scores 10. `tokens[p]` is `None` for a player who left
/// the game. Returns, per good, the players who score.
pub fn goods_majorities(tokens: &[Option<[u8; 3]>]) -> [Vec<u8>; 3] {
    let mut out: [Vec<u8>; 3] = Default::default();
    for (k, winners) in out.iter_mut().enumerate() {
        let max = tokens.iter().flatten().map(|t| t[k]).max().unwrap_or(0);
        if max == 0 {
            continue;
        }
        for (p, t) in tokens.iter().enumerate() {
            if t.is_some_and(|t| t[k] == max) {
                winners.push(p as u8);
            }
        }
    }
    out
}

/// Does `player` have a follower in the feature containing `seg`? (Builders and pigs
/// join only such features, and go home when it holds none.)
pub(crate) fn has_own_follower(board: &Board, seg: u16, player: u8) -> bool {
    let root = board.find(seg);
    board
        .figures
        .iter()
        .any(|f| f.owner == player && f.kind.is_follower() && board.find(f.seg) == root)
}

/// Traders & Builders' decisions: no phase of its own; in the figure phase, where the
/// builder and the pig may go.
pub(crate) struct TradersBuilders;

impl Hooks for TradersBuilders {
    /// The builder and the pig (house rules `builder`, `pig`).
    fn figures(&self, set: ExpansionSet, rules: &HouseRules, supply: &mut [u8; FigureKind::COUNT]) {
        if set.contains(Expansion::TradersBuilders) {
            for (kind, on) in [
                (FigureKind::Builder, rules.builder.on()),
                (FigureKind::Pig, rules.pig.on()),
            ] {
                if on {
                    supply[kind as usize] = 1;
                }
            }
        }
    }

    /// Every turn begins with its first part.
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::TradersBuilders) {
            t.builder = Some(BuilderPart::Plain);
        }
    }

    /// The builder's second part, when it earned one.
    fn another_part(&self, t: &mut Table) -> bool {
        t.take_second_part()
    }

    /// The next turn begins with a first part.
    fn turn_over(&self, t: &mut Table) {
        t.reset_builder();
    }

    /// The next turn begins with a first part.
    fn turn_given_up(&self, t: &mut Table) {
        t.reset_builder();
    }

    /// No second part after all.
    fn part_cut_short(&self, t: &mut Table) {
        t.cancel_builder();
    }
}

impl Decisions for TradersBuilders {
    /// The builder joins a road or city, the pig a field, each only where the player has
    /// a follower; the builder not into a completed feature. Any number may share it.
    #[inline]
    fn figure_check(
        &self,
        t: &Table,
        board: &Board,
        seg: u16,
        k: FigureKind,
    ) -> Option<Result<(), PlayError>> {
        if !matches!(k, FigureKind::Builder | FigureKind::Pig) {
            return None;
        }
        Some(builder_or_pig_check(t, board, seg, k))
    }
}

/// [`TradersBuilders::figure_check`] for the builder or the pig (`k`).
#[inline]
fn builder_or_pig_check(
    t: &Table,
    board: &Board,
    seg: u16,
    k: FigureKind,
) -> Result<(), PlayError> {
    let me = t.current;
    let refuse = || PlayError::FigureNotAllowed {
        figure: k.id(),
        feature: board.seg_kind(seg).name(),
    };
    if !t.expansions.contains(Expansion::TradersBuilders) {
        return Err(refuse());
    }
    let kind = board.seg_kind(seg);
    if k == FigureKind::Builder {
        if !matches!(kind, FeatureKind::Road | FeatureKind::City) {
            return Err(refuse());
        }
        if board.open_sides(seg) == 0 {
            return Err(PlayError::FigureNotAllowed {
                figure: k.id(),
                feature: "completed feature",
            });
        }
    } else if kind != FeatureKind::Field {
        return Err(refuse());
    }
    if !has_own_follower(board, seg, me) {
        return Err(PlayError::NeedsOwnFollower(k.id()));
    }
    Ok(())
}

/// House rule `field_scoring = per_city`: the players with a pig in the field of `root`
/// (the pig's bonus per city).
pub(crate) fn pigs_in(board: &Board, root: u16) -> [bool; 8] {
    let mut pig = [false; 8];
    for f in &board.figures {
        if f.kind == FigureKind::Pig && board.find(f.seg) == root {
            pig[f.owner as usize] = true;
        }
    }
    pig
}

/// Where a turn stands with the builder's second part (one per turn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuilderPart {
    /// The first part, no builder extended.
    Plain,
    /// The first part's tile extended a road or city holding the active player's builder:
    /// a second part follows.
    Triggered,
    /// The second part is under way (it triggers nothing).
    Second,
}

impl BuilderPart {
    /// The part will not be followed by a second one after all (the final round began, or
    /// the active player's turn was cut short).
    pub fn cancel(&mut self) {
        if *self == BuilderPart::Triggered {
            *self = BuilderPart::Plain;
        }
    }
}

impl Table {
    /// Hook *tile placed* (Traders & Builders): in a first part, a tile extending a road
    /// or city holding the active player's builder earns a second part.
    pub(crate) fn builder_tile_placed(&mut self, idx: usize) {
        let Some(part) = self.builder else {
            return;
        };
        if part != BuilderPart::Second {
            let next = if self.builder_triggered(idx) {
                BuilderPart::Triggered
            } else {
                BuilderPart::Plain
            };
            self.builder = Some(next);
        }
    }

    /// The part will not be followed by a second one after all.
    pub(crate) fn cancel_builder(&mut self) {
        if let Some(part) = self.builder.as_mut() {
            part.cancel();
        }
    }

    /// A new turn: its first part.
    pub(crate) fn reset_builder(&mut self) {
        if let Some(part) = self.builder.as_mut() {
            *part = BuilderPart::Plain;
        }
    }

    /// After a turn part: whether the builder earned a second part (which begins now).
    pub(crate) fn take_second_part(&mut self) -> bool {
        match self.builder.as_mut() {
            Some(part) if *part == BuilderPart::Triggered => {
                *part = BuilderPart::Second;
                true
            }
            _ => false,
        }
    }

    /// Did the tile placed at index `idx` extend a road or city
    /// holding the active player's builder?
    pub(crate) fn builder_triggered(&self, idx: usize) -> bool {
        let tt = self.board.tiles()[idx].tile_type();
        let me = self.current;
        // the roots of the features holding the active player's builders (one each)
        let mut builders = [0u16; 4];
        let mut nb = 0;
        for f in &self.board.figures {
            if f.owner == me && f.kind == FigureKind::Builder && nb < builders.len() {
                builders[nb] = self.board.find(f.seg);
                nb += 1;
            }
        }
        if nb == 0 {
            return false;
        }
        (0..tt.features.len()).any(|i| {
            matches!(tt.features[i].kind, FeatureKind::Road | FeatureKind::City)
                && builders[..nb].contains(&self.board.find(self.board.seg(idx, i)))
        })
    }

    /// Hook *features scored*: the active player takes the goods of every completed city.
    pub(crate) fn take_goods(&mut self, completed_cities: &[u16], sink: &mut impl EffectSink) {
        let mut got = [0u8; 3];
        for &root in completed_cities {
            for (a, b) in got.iter_mut().zip(self.board.goods(root)) {
                *a += b;
            }
        }
        if got != [0; 3] {
            let me = &mut self.players[self.current as usize];
            for (a, b) in me.goods.iter_mut().zip(got) {
                *a += b;
            }
            if sink.enabled() {
                sink.push(Effect::GoodsTaken {
                    player: self.current,
                    wine: got[0],
                    grain: got[1],
                    cloth: got[2],
                });
            }
        }
    }

    /// Traders & Builders: 10 points to every player with the most tokens of each good
    /// (at least one). Players who left the game take no part.
    pub(crate) fn score_goods(&mut self, sink: &mut impl EffectSink) {
        let tokens: Vec<Option<[u8; 3]>> = self
            .players
            .iter()
            .map(|p| p.active.then_some(p.goods))
            .collect();
        let winners = expansions::goods_majorities(&tokens);
        for (k, good) in ["wine", "grain", "cloth"].into_iter().enumerate() {
            for &p in &winners[k] {
                self.grant(p, expansions::GOODS_MAJORITY_POINTS, 0, sink);
                if sink.enabled() {
                    sink.push(Effect::GoodsScored {
                        player: p,
                        good: good.to_string(),
                        points: expansions::GOODS_MAJORITY_POINTS,
                    });
                }
            }
        }
    }
}

/// The goods of a city, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    for g in tile.features.iter().filter_map(|f| f.goods) {
        w.extra(match g {
            crate::catalog::Goods::Wine => "wine",
            crate::catalog::Goods::Grain => "grain",
            crate::catalog::Goods::Cloth => "cloth",
        });
    }
}
