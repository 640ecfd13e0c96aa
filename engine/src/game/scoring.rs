//! Scoring: completed features during the game, final scoring and the ranking.

use super::*;
use crate::rules::{FieldScoring, SmallCity};

impl Game {
    /// Scores every completed feature that the tile at `ti` completed, hands out goods,
    /// then returns the figures standing in the scored features.
    pub(crate) fn score_completed(&mut self, ti: usize, sink: &mut impl EffectSink) {
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        // candidates: (order key, smallest position, root)
        let mut cands: [(u8, Pos, u16); 24] = [(0, Pos::new(0, 0), 0); 24];
        let mut n = 0;
        let mut add = |key: u8, pos: Pos, root: u16, n: &mut usize| {
            if *n < cands.len() && !cands[..*n].iter().any(|c| c.2 == root) {
                cands[*n] = (key, pos, root);
                *n += 1;
            }
        };
        let mut completed_cities = [0u16; 8];
        let mut nc = 0;
        // roads and cities of the placed tile, and those of its neighbours that face it
        // (an abbey closes them without joining them)
        let mut segs = [0u16; 24];
        let mut ns = 0;
        for (i, f) in tt.features.iter().enumerate() {
            if matches!(f.kind, FeatureKind::Road | FeatureKind::City) && ns < segs.len() {
                segs[ns] = self.board.seg(ti, i);
                ns += 1;
            }
        }
        // the expansions' segments to check too (the road ends of a lake whose ferry was
        // placed or moved this part)
        self.segments_to_score(&mut segs, &mut ns);
        for d in crate::geometry::Dir::ALL {
            if let Some(j) = self.board.tile_index_at(pt.pos.step(d)) {
                let o = self.board.tiles()[j];
                let f = o.tile_type().edge_feature[o.rotation.index()][d.opposite().index()];
                if f != crate::catalog::NONE && ns < segs.len() {
                    let seg = self.board.seg(j, f as usize);
                    if matches!(
                        self.board.seg_kind(seg),
                        FeatureKind::Road | FeatureKind::City
                    ) {
                        segs[ns] = seg;
                        ns += 1;
                    }
                }
            }
        }
        for &seg in &segs[..ns] {
            let kind = self.board.seg_kind(seg);
            {
                if self.board.open_sides(seg) != 0 {
                    continue;
                }
                let root = self.board.find(seg);
                if kind == FeatureKind::City
                    && nc < completed_cities.len()
                    && !completed_cities[..nc].contains(&root)
                {
                    completed_cities[nc] = root;
                    nc += 1;
                }
                if self.board.figures_in(seg) > 0 {
                    let key = if kind == FeatureKind::Road { 0 } else { 1 };
                    add(key, self.board.smallest_pos(seg), root, &mut n);
                }
            }
        }
        let mut around = [pt.pos; 9];
        around[1..].copy_from_slice(&pt.pos.surrounding());
        for p in around {
            if let Some(j) = self.board.tile_index_at(p) {
                let o = self.board.tiles()[j];
                let ot = o.tile_type();
                for (c, f) in ot.features.iter().enumerate() {
                    if f.kind.is_cloister() {
                        let seg = self.board.seg(j, c);
                        if self.board.figures_in(seg) > 0 && self.board.is_complete(seg) {
                            add(2, p, seg, &mut n);
                        }
                    }
                }
            }
        }
        let cands = &mut cands[..n];
        cands.sort_by_key(|c| (c.0, c.1));
        let mut scored = [(0u16, 0u8); 24];
        for (k, &(_, _, root)) in cands.iter().enumerate() {
            let kind = self.board.seg_kind(root);
            let value = self.completed_worth(root, self.board.distinct_tiles(root));
            scored[k] = (
                root,
                self.award(root, kind, value, 0, false, k as u16, sink),
            );
        }
        // the expansions learn which features are scored, in order (with the score track
        // the active player orders several)
        self.features_to_score(cands);
        // hook *features scored*: each expansion's share of this scoring
        self.features_scored(ti, &scored[..cands.len()], &completed_cities[..nc], sink);
        // every figure of every scored feature goes home, unless an expansion frees it to
        // move on by its owner's decision (a wagon): those wait in turn order from the
        // active player
        let n_players = self.players.len() as u8;
        let mut freed: Vec<(u8, Pos)> = Vec::new();
        for &(_, _, root) in cands.iter() {
            let root = self.board.find(root);
            let mut i = 0;
            while i < self.board.figures.len() {
                let f = self.board.figures[i];
                if self.board.find(f.seg) != root {
                    i += 1;
                    continue;
                }
                if !self.figure_freed(i, &mut freed, sink) {
                    self.return_figure(i, sink);
                }
            }
        }
        let cur = self.current;
        freed.sort_by_key(|(o, _)| (o + n_players - cur) % n_players);
        self.figures_freed(freed);
        self.return_lonely_specials(sink);
    }

    /// What the feature containing `root` scores when it is completed on `tiles`
    /// distinct tiles, with the pennants, inns, cathedrals and figures it holds now (the
    /// house rule on small cities, the abbot's 7 and the mage and witch included).
    pub(crate) fn completed_worth(&self, root: u16, tiles: u32) -> i32 {
        let kind = self.board.seg_kind(root);
        let mut value = expansions::completed_value(
            kind,
            tiles,
            self.board.pennants(root),
            self.board.flags(root),
        );
        if kind == FeatureKind::City {
            value = small_city_value(self.rules.small_city, value, tiles, root, &self.board);
        }
        // the expansions' figures in it (the abbot, the mage and the witch)
        self.expansions_completed_value(root, kind, tiles, value)
    }

    /// Each player's score if the game ended now: the final scoring of every feature and
    /// the expansions' final scoring on a copy, the game left as it is (an estimate for
    /// computer opponents and hints; it reads nothing hidden).
    pub fn final_scores_now(&self) -> Vec<i32> {
        self.clone().into_final_scores()
    }

    /// [`Game::final_scores_now`] of a game its caller no longer needs: the final scoring
    /// runs on the game itself, without a copy.
    pub fn into_final_scores(mut self) -> Vec<i32> {
        if !self.is_over() {
            self.end_game(&mut NoEffects);
        }
        self.players.iter().map(|p| p.score).collect()
    }

    /// Final scoring and ranking.
    pub(crate) fn end_game(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        self.placed = None;
        self.phase = Phase::GameOver;
        // the expansions settle what is under way (the score track's awards still queued,
        // when a resignation ended the game)
        self.game_ends(sink);
        // features with followers, ordered: roads, cities, cloisters, fields; each by the
        // smallest position among their tiles
        let mut feats: Vec<(u8, Pos, u16)> = Vec::with_capacity(self.board.figures.len());
        for f in &self.board.figures {
            if !f.kind.is_follower() {
                continue;
            }
            let kind = self.board.seg_kind(f.seg);
            // cloisters are single segments: keep the segment itself
            let id = if kind.is_cloister() {
                f.seg
            } else {
                self.board.find(f.seg)
            };
            if feats.iter().any(|x| x.2 == id) {
                continue;
            }
            let key = match kind {
                FeatureKind::Road => 0,
                FeatureKind::City => 1,
                FeatureKind::Monastery | FeatureKind::Garden => 2,
                FeatureKind::Field => 3,
                _ => 4,
            };
            let pos = if kind.is_cloister() {
                self.board.tiles()[self.board.seg_tile(f.seg)].pos
            } else {
                self.board.smallest_pos(id)
            };
            feats.push((key, pos, id));
        }
        feats.sort_by_key(|x| (x.0, x.1));
        let mut cities = Vec::new();
        let per_city = self.rules.field_scoring == FieldScoring::PerCity;
        for &(_, _, seg) in &feats {
            let kind = self.board.seg_kind(seg);
            if per_city && kind == FeatureKind::Field {
                continue;
            }
            let mut pig_bonus = 0;
            // the expansions' bonus per completed city, for each player
            let mut extra = [0i32; 8];
            let value = match kind {
                FeatureKind::Field => {
                    // the pig's bonus goes to its owner only: see `award`
                    let done = self.board.completed_cities(seg, &mut cities);
                    pig_bonus = expansions::PIG_BONUS_PER_CITY * done as i32;
                    for (p, x) in extra.iter_mut().enumerate().take(self.players.len()) {
                        *x = self.field_city_bonus(&[seg], p as u8) * done as i32;
                    }
                    expansions::final_value(kind, 0, 0, 0, done)
                }
                _ => self.final_feature_value(seg, 0),
            };
            let _ = self.award_with(seg, kind, value, pig_bonus, &extra, true, 0, sink);
        }
        if per_city {
            let fields: Vec<u16> = feats.iter().filter(|f| f.0 == 3).map(|f| f.2).collect();
            self.score_fields_per_city(&fields, sink);
        }
        // hook *final scoring*: barns, goods, gold
        self.final_scoring(&mut cities, sink);
        self.ranking = rank(&self.players);
        if sink.enabled() {
            sink.push(Effect::GameOver {
                ranking: self.ranking.clone(),
            });
        }
    }
}

/// House rule `small_city_points = 2` (first edition): a completed city of two tiles is
/// worth 1 per tile and pennant instead of 2. `value` is its standard value.
fn small_city_value(rule: SmallCity, value: i32, tiles: u32, root: u16, board: &Board) -> i32 {
    if rule == SmallCity::Two && tiles == 2 {
        let pennants = board.pennants(root) as i32;
        if value == 4 + 2 * pennants {
            return 2 + pennants;
        }
    }
    value
}

impl Game {
    /// House rule `field_scoring = per_city` (first edition): every completed city that
    /// touches a field with farmers pays 4 once, to the players with the most farmer
    /// strength in all the fields (`fields`, one segment each) that touch it; a winner
    /// with a pig in one of those fields gets the pig's 1 more (Traders & Builders), and
    /// the expansions' field bonus from the fields where they have a farmer.
    /// Cities are scored by the smallest position among their tiles.
    fn score_fields_per_city(&mut self, fields: &[u16], sink: &mut impl EffectSink) {
        let n = self.players.len();
        // per completed city: (smallest position, root, strength per player, pig per player,
        // the fields supplying it)
        type PerCity = (Pos, u16, [u32; 8], [bool; 8], Vec<u16>);
        let mut per_city: Vec<PerCity> = Vec::new();
        // each field's root and strength per player
        let mut field_strength: Vec<(u16, [u32; 8])> = Vec::new();
        let mut cities = Vec::new();
        for &field in fields {
            let root = self.board.find(field);
            let mut strength = [0u32; 8];
            for f in &self.board.figures {
                if f.kind.is_follower() && self.board.find(f.seg) == root {
                    strength[f.owner as usize] += f.kind.base_strength();
                }
            }
            field_strength.push((root, strength));
            let pig = expansions::traders_builders::pigs_in(&self.board, root);
            self.board.completed_cities(field, &mut cities);
            for &c in &cities {
                if self.board.open_sides(c) != 0 {
                    continue;
                }
                let c = self.board.find(c);
                let k = match per_city.iter().position(|x| x.1 == c) {
                    Some(k) => k,
                    None => {
                        let pos = self.board.smallest_pos(c);
                        per_city.push((pos, c, [0; 8], [false; 8], Vec::new()));
                        per_city.len() - 1
                    }
                };
                for p in 0..n {
                    per_city[k].2[p] += strength[p];
                    per_city[k].3[p] |= pig[p] && strength[p] > 0;
                }
                if !per_city[k].4.contains(&root) {
                    per_city[k].4.push(root);
                }
            }
        }
        per_city.sort_by_key(|x| x.0);
        let mut own = Vec::new();
        for (_, city, strength, pig, fields) in per_city {
            let max = strength.iter().copied().max().unwrap_or(0);
            if max == 0 {
                continue;
            }
            // the expansions' bonus for each winner, from the fields where they farm
            let mut extra = [0i32; 8];
            for p in (0..n).filter(|&p| strength[p] == max) {
                own.clear();
                own.extend(
                    fields
                        .iter()
                        .copied()
                        .filter(|f| field_strength.iter().any(|(r, s)| r == f && s[p] > 0)),
                );
                extra[p] = self.field_city_bonus(&own, p as u8);
            }
            // one scoring per distinct award: without a pig, then with one, each by
            // points, fewest first
            let mut awards: Vec<(bool, i32)> = (0..n)
                .filter(|&p| strength[p] == max)
                .map(|p| (pig[p], extra[p]))
                .collect();
            awards.sort_unstable();
            awards.dedup();
            for (with_pig, x) in awards {
                let points = FIRST_EDITION_POINTS_PER_CITY
                    + if with_pig {
                        expansions::PIG_BONUS_PER_CITY
                    } else {
                        0
                    }
                    + x;
                let winners: Vec<u8> = (0..n)
                    .filter(|&p| strength[p] == max && pig[p] == with_pig && extra[p] == x)
                    .map(|p| p as u8)
                    .collect();
                for &p in &winners {
                    self.grant(p, points, 0, sink);
                }
                if sink.enabled() && !winners.is_empty() {
                    sink.push(Effect::FeatureScored {
                        feature: FeatureKind::Field,
                        points,
                        players: winners,
                        tiles: self.board.feature_positions(city),
                        final_scoring: true,
                    });
                }
            }
        }
    }
}

/// House rule `field_scoring = per_city`: what a completed city pays its farmers.
pub const FIRST_EDITION_POINTS_PER_CITY: i32 = 4;

/// Competition ranking: higher scores first, ties share a place.
/// Players who left the game rank below every player who did not.
pub(crate) fn rank(players: &[PlayerState]) -> Vec<RankEntry> {
    let key = |p: &PlayerState| (p.active, p.score);
    let mut v: Vec<RankEntry> = players
        .iter()
        .enumerate()
        .map(|(i, p)| RankEntry {
            player: i as u8,
            score: p.score,
            rank: 1 + players.iter().filter(|q| key(q) > key(p)).count() as u8,
        })
        .collect();
    v.sort_by_key(|e| (e.rank, e.player));
    v
}
