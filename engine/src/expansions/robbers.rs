//! The Robbers: after a robber tile the active player, then the next player with a robber
//! in the supply, may put a robber on a track space holding another player's score figure;
//! a figure leaving that space is robbed of half its points.

use super::prelude::*;
use super::score_track::Award;

/// House rule `robbers_end_bonus_3`: what a robber left on the track earns at the end.
pub const ROBBER_END_BONUS: i32 = 3;

/// Half of the points, rounded up (what a robber steals).
pub fn robbery(points: i32) -> i32 {
    points - points / 2
}

/// The Robbers' share of final scoring, read from one of its effects: what a robber stole
/// from an award paid as the game ends, or its end bonus (house rule).
pub(crate) fn end_scoring_points(e: &Effect) -> Vec<(u8, i32)> {
    match e {
        Effect::RobberStole { player, points, .. } | Effect::RobberBonus { player, points } => {
            vec![(*player, *points)]
        }
        _ => Vec::new(),
    }
}

/// The state of The Robbers, held by a game with this expansion only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RobberState {
    /// Each player's robber's track space, `None` in the supply.
    at: Vec<Option<u8>>,
    /// The player after the active one who may place a robber now.
    second: Option<u8>,
    /// Victims chosen for the award batch under way (robber's owner, victim, batch).
    victims: Vec<(u8, u8, u16)>,
}

impl RobberState {
    /// The robbers of a game with `players` seats, all in the supply.
    pub(crate) fn new(players: u8) -> RobberState {
        RobberState {
            at: vec![None; players as usize],
            second: None,
            victims: Vec::new(),
        }
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.at.capacity() * std::mem::size_of::<Option<u8>>()
            + self.victims.capacity() * std::mem::size_of::<(u8, u8, u16)>()
    }
}

impl Table {
    /// The space of a player's robber, `None` while it is in the supply.
    pub fn robber(&self, player: u8) -> Option<u8> {
        self.robbers
            .as_deref()
            .and_then(|r| r.at.get(player as usize).copied().flatten())
    }

    /// Robbers: before the head award moves score figure `figure` of its player off a
    /// robber's space, the first robber whose owner must choose whom to rob, with the
    /// players to choose from (a bit per seat): the head award's player and every other
    /// player with an award later in the same batch and a score figure on that space
    /// (with Messages that player may still move the other figure). `None` when nobody
    /// has a real choice (fewer than two victims) or has chosen already.
    pub(crate) fn victim_choice(&self, figure: u8) -> Option<(u8, u8)> {
        let robbers = self.robbers.as_deref()?;
        if self.phase == Phase::GameOver {
            return None;
        }
        let track = self.score_track.as_deref()?;
        let awards = track.awards();
        let a = *awards.first()?;
        if a.proceeds || a.points <= 0 {
            return None;
        }
        let p = a.player as usize;
        let from = track.space_of(p, figure.min(1) as usize);
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        for q in 0..self.players.len() {
            if q == p
                || robbers.at[q] != Some(from)
                || robbers
                    .victims
                    .iter()
                    .any(|v| v.0 as usize == q && v.2 == a.batch)
            {
                continue;
            }
            let mut victims = 1u8 << p;
            for b in &awards[1..] {
                let y = b.player as usize;
                if b.batch == a.batch
                    && !b.proceeds
                    && b.points > 0
                    && y != q
                    && self.players[y].active
                    && (0..figures).any(|f| track.space_of(y, f) == from)
                {
                    victims |= 1 << y;
                }
            }
            if victims.count_ones() >= 2 {
                return Some((q as u8, victims));
            }
        }
        None
    }

    /// The player who chooses the victim now.
    pub(crate) fn victim_decider(&self) -> Option<u8> {
        self.victim_choice(self.award_figure())
            .map(|(owner, _)| owner)
    }

    /// Robbers: the deciding robber's owner robs `victim` in this award batch.
    pub(crate) fn choose_victim(
        &mut self,
        victim: u8,
        sink: &mut impl EffectSink,
    ) -> Result<Option<Stage>, PlayError> {
        let (owner, victims) = self
            .victim_choice(self.award_figure())
            .ok_or(PlayError::VictimNotAllowed)?;
        if victim >= 8 || victims & (1 << victim) == 0 {
            return Err(PlayError::VictimNotAllowed);
        }
        let batch = self.head_award().map_or(0, |a| a.batch);
        if let Some(r) = self.robbers.as_deref_mut() {
            r.victims.push((owner, victim, batch));
        }
        Ok(self.continue_award(sink))
    }

    /// Victims are chosen for one award batch: those of other batches are forgotten.
    pub(crate) fn keep_victims_of(&mut self, batch: u16) {
        if let Some(r) = self.robbers.as_deref_mut() {
            r.victims.retain(|v| v.2 == batch);
        }
    }

    /// Forgets every chosen victim.
    pub(crate) fn clear_victims(&mut self) {
        if let Some(r) = self.robbers.as_deref_mut() {
            r.victims.clear();
        }
    }

    /// Award `a` moved a score figure from track space `from` to `to`: every other
    /// player's robber on `from` steals half (its owner's chosen victim only), or is
    /// taken along by robbery proceeds.
    pub(crate) fn rob(&mut self, a: Award, from: u8, to: u8, sink: &mut impl EffectSink) {
        let p = a.player as usize;
        for q in 0..self.players.len() {
            let Some(robbers) = self.robbers.as_deref_mut() else {
                return;
            };
            if q == p || robbers.at[q] != Some(from) {
                continue;
            }
            if a.proceeds {
                // rogue points: the robber gains nothing and moves along
                robbers.at[q] = Some(to);
                continue;
            }
            // a robber whose owner chose a victim in this batch robs only that player
            if let Some(k) = robbers
                .victims
                .iter()
                .position(|v| v.0 as usize == q && v.2 == a.batch)
            {
                if robbers.victims[k].1 != a.player {
                    continue;
                }
                robbers.victims.remove(k);
            }
            let stolen = robbery(a.points);
            robbers.at[q] = None;
            if sink.enabled() {
                sink.push(Effect::RobberStole {
                    player: q as u8,
                    victim: a.player,
                    points: stolen,
                });
            }
            let proceeds = Award {
                player: q as u8,
                points: stolen,
                batch: a.batch,
                proceeds: true,
            };
            self.queue_proceeds(proceeds, sink);
        }
    }

    /// Before final scoring (Messages): a robber left beside no other player's figure
    /// goes home.
    pub(crate) fn robbers_home_alone(&mut self) {
        let (Some(robbers), Some(track)) =
            (self.robbers.as_deref_mut(), self.score_track.as_deref())
        else {
            return;
        };
        let n = self.players.len();
        for q in 0..n {
            if let Some(s) = robbers.at[q] {
                let beside = (0..n).any(|p| p != q && track.space_of(p, 0) == s);
                if !beside {
                    robbers.at[q] = None;
                }
            }
        }
    }

    /// House rule `robbers_end_bonus_3`, after final scoring: every robber still on the
    /// track goes home and earns its owner 3 points (all leave the track first, so none
    /// robs another's bonus). Without the rule they go home without effect.
    pub(crate) fn robbers_end_bonus(&mut self, sink: &mut impl EffectSink) {
        if !self.rules.robbers_end_bonus.on() {
            return;
        }
        let Some(robbers) = self.robbers.as_deref_mut() else {
            return;
        };
        let owners: Vec<u8> = (0..robbers.at.len())
            .filter(|&q| robbers.at[q].take().is_some())
            .map(|q| q as u8)
            .collect();
        for p in owners {
            if !self.players[p as usize].active {
                continue;
            }
            self.grant(p, ROBBER_END_BONUS, 0, sink);
            if sink.enabled() {
                sink.push(Effect::RobberBonus {
                    player: p,
                    points: ROBBER_END_BONUS,
                });
            }
        }
    }

    /// A player leaves: their robber goes back to the box.
    pub(crate) fn robber_leaves(&mut self, player: u8) {
        if let Some(r) = self
            .robbers
            .as_deref_mut()
            .and_then(|r| r.at.get_mut(player as usize))
        {
            *r = None;
        }
    }

    /// The robber placement is dropped (the active player left).
    pub(crate) fn drop_robber_placement(&mut self) {
        if let Some(r) = self.robbers.as_deref_mut() {
            r.second = None;
        }
    }

    /// Track spaces where player `p` may put a robber: those holding another player's
    /// score figure.
    pub fn robber_spaces(&self, p: u8) -> Vec<u8> {
        let Some(track) = self.score_track.as_deref() else {
            return Vec::new();
        };
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        let mut v: Vec<u8> = (0..self.players.len())
            .filter(|q| *q != p as usize && self.players[*q].active)
            .flat_map(|q| (0..figures).map(move |f| (q, f)))
            .map(|(q, f)| track.space_of(q, f))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The player deciding on a robber now (the active player, then the first player
    /// clockwise whose robber is in the supply).
    pub(crate) fn robber_decider(&self) -> u8 {
        self.robbers
            .as_deref()
            .and_then(|r| r.second)
            .unwrap_or(self.current)
    }

    /// Hook *tile placed* (Robbers): a robber symbol starts the robber placement. Returns
    /// true when a decision is pending.
    pub(crate) fn start_robbers(&mut self, symbols: u8) -> bool {
        let Some(r) = self.robbers.as_deref_mut() else {
            return false;
        };
        if symbols & crate::catalog::symbol::ROBBER == 0 {
            return false;
        }
        r.second = None;
        if !self.robber_spaces(self.current).is_empty() {
            self.phase = Phase::PlaceRobber;
            return true;
        }
        self.next_robber_placer()
    }

    /// After the active player's robber decision: the first player clockwise whose robber
    /// is in the supply may place theirs.
    pub(crate) fn next_robber_placer(&mut self) -> bool {
        let Some(r) = self.robbers.as_deref_mut() else {
            return false;
        };
        if r.second.is_some() {
            r.second = None;
            return false;
        }
        let n = self.players.len() as u8;
        for k in 1..n {
            let q = (self.current + k) % n;
            if self.players[q as usize].active && self.robber(q).is_none() {
                if self.robber_spaces(q).is_empty() {
                    return false;
                }
                if let Some(r) = self.robbers.as_deref_mut() {
                    r.second = Some(q);
                }
                self.phase = Phase::PlaceRobber;
                return true;
            }
        }
        false
    }

    /// A robber decision (`None`: skip). Returns true when the robber placement is over.
    pub(crate) fn place_robber(&mut self, player: u8, s: Option<u8>) -> Result<bool, PlayError> {
        if let Some(s) = s {
            if !self.robber_spaces(player).contains(&s) {
                return Err(PlayError::RobberNotAllowed);
            }
            let slot = self
                .robbers
                .as_deref_mut()
                .and_then(|r| r.at.get_mut(player as usize))
                .ok_or(PlayError::RobberNotAllowed)?;
            *slot = Some(s);
        }
        Ok(!self.next_robber_placer())
    }
}

/// A robber set where a worked example puts it (unit tests).
/// The robber symbol, for the tile's description.
pub(crate) fn describe_tile(tile: &crate::catalog::TileType, w: &mut crate::tile_words::Words) {
    if tile.symbols & crate::catalog::symbol::ROBBER != 0 {
        w.extra("robber");
    }
}

/// The Robbers' decisions: place (or move) a robber, or pass; whom a robber robs.
pub(crate) struct Robbers;

impl Hooks for Robbers {
    fn heap_bytes(&self, t: &Table) -> usize {
        t.robbers.as_deref().map_or(0, |r| r.heap_bytes())
    }

    /// The robbers beside the track.
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::Robbers) {
            t.robbers = Some(Box::new(RobberState::new(t.players.len() as u8)));
        }
    }
}

impl Decisions for Robbers {
    const PHASES: &'static [Phase] = &[Phase::PlaceRobber, Phase::ChooseVictim];

    fn player_leaves(&self, t: &mut Table, player: u8) {
        t.robber_leaves(player);
    }

    /// Whoever leaves, the choice of a victim is looked at again. The player placing a
    /// robber left: another player's placement is skipped; the active player's drops the
    /// second robber's and goes on to scoring.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        deciding: bool,
        sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        Some(match t.phase {
            Phase::ChooseVictim => t.continue_award(sink),
            Phase::PlaceRobber if deciding && player != t.current => t
                .place_robber(player, None)
                .unwrap_or(true)
                .then_some(Stage::Gold),
            Phase::PlaceRobber if deciding => {
                t.drop_robber_placement();
                t.cancel_builder();
                Some(Stage::Scoring)
            }
            Phase::PlaceRobber => None,
            _ => return None,
        })
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        match t.phase {
            Phase::PlaceRobber => {
                out.extend(
                    t.robber_spaces(t.robber_decider())
                        .into_iter()
                        .map(|space| Action::PlaceRobber { space }),
                );
                out.push(Action::Pass);
            }
            Phase::ChooseVictim => {
                if let Some((_, victims)) = t.victim_choice(t.award_figure()) {
                    out.extend(
                        (0..8u8)
                            .filter(|v| victims & (1 << v) != 0)
                            .map(|victim| Action::ChooseVictim { victim }),
                    );
                }
            }
            _ => {}
        }
    }

    fn decider(&self, t: &Table) -> Option<u8> {
        match t.phase {
            Phase::PlaceRobber => Some(t.robber_decider()),
            Phase::ChooseVictim => t.victim_decider(),
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
            (Phase::PlaceRobber, Action::PlaceRobber { space }) => t
                .place_robber(player, Some(*space))
                .map(|done| (Done::AsPosted, done.then_some(Stage::Gold))),
            (Phase::PlaceRobber, Action::Pass) => t.place_robber(player, None).map(|done| {
                (
                    Done::Declined(Declined::Robber),
                    done.then_some(Stage::Gold),
                )
            }),
            (Phase::ChooseVictim, Action::ChooseVictim { victim }) => t
                .choose_victim(*victim, sink)
                .map(|next| (Done::AsPosted, next)),
            _ => return None,
        })
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use crate::game::Game;

    pub(crate) fn put_robber(g: &mut Game, p: u8, s: Option<u8>) {
        if let Some(r) = g.robbers.as_deref_mut() {
            r.at[p as usize] = s;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expansions::score_track::space;
    use crate::expansions::score_track::testing::*;

    #[test]
    fn rb1_basic_robbery() {
        let mut g = game(vec![Expansion::Robbers]);
        set(&mut g, RED, 17, 0);
        // Blue's robber goes on Red's space; Green may place one too and skips
        assert!(g.robber_spaces(BLUE).contains(&17));
        assert!(
            !g.robber_spaces(RED).contains(&17),
            "not on one's own figure"
        );
        testing::put_robber(&mut g, BLUE, Some(17));
        // Red's monk completes a monastery: 17 -> 26
        let fx = score(&mut g, &[award(RED, 9, 0)]);
        assert_eq!(g.track(RED)[0], 26);
        assert_eq!(g.players[RED as usize].score, 26, "Red keeps all 9");
        assert_eq!(g.players[BLUE as usize].score, 5, "ceil(9/2)");
        assert_eq!(g.robber(BLUE), None, "the robber goes home");
        assert!(fx.contains(&Effect::RobberStole {
            player: BLUE,
            victim: RED,
            points: 5
        }));
    }

    #[test]
    fn rb2_only_one_award_is_robbed_in_the_chosen_order() {
        for (first, second, stolen) in [(3, 9, 2), (9, 3, 5)] {
            let mut g = game(vec![Expansion::Robbers]);
            set(&mut g, RED, 17, 0);
            testing::put_robber(&mut g, BLUE, Some(17));
            score(&mut g, &[award(RED, first, 0), award(RED, second, 1)]);
            assert_eq!(g.players[RED as usize].score, 17 + 12);
            assert_eq!(g.players[BLUE as usize].score, stolen);
        }
    }

    #[test]
    fn rb3_rogue_points_move_the_robber_along() {
        let mut g = game(vec![Expansion::Robbers]);
        set(&mut g, RED, 0, 0);
        set(&mut g, BLUE, 12, 0);
        set(&mut g, GREEN, 20, 0);
        testing::put_robber(&mut g, RED, Some(12));
        testing::put_robber(&mut g, BLUE, Some(20));
        // Green scores 6: Blue steals 3 and moves 12 -> 15; Red's robber goes along
        score(&mut g, &[award(GREEN, 6, 0)]);
        assert_eq!(g.players[GREEN as usize].score, 26);
        assert_eq!(g.players[BLUE as usize].score, 15);
        assert_eq!(
            g.players[RED as usize].score, 0,
            "robbery proceeds are never robbed"
        );
        assert_eq!(g.robber(RED), Some(15));
        assert_eq!(g.robber(BLUE), None);
        // later Blue scores 4 normally: Red steals 2
        score(&mut g, &[award(BLUE, 4, 1)]);
        assert_eq!(g.players[RED as usize].score, 2);
        assert_eq!(g.robber(RED), None);
    }

    #[test]
    fn rb4_a_tie_in_one_feature_is_robbed_once() {
        for victim in [RED, BLUE] {
            let mut g = game(vec![Expansion::Robbers]);
            set(&mut g, RED, 30, 0);
            set(&mut g, BLUE, 30, 0);
            testing::put_robber(&mut g, GREEN, Some(30));
            queue(&mut g, &[award(RED, 10, 0), award(BLUE, 10, 0)]);
            let mut fx = Vec::new();
            assert!(g.process_awards(&mut fx), "Green chooses whom to rob");
            assert_eq!(g.phase, Phase::ChooseVictim);
            assert_eq!(g.decider(), GREEN);
            assert_eq!(g.victim_choice(0), Some((GREEN, 1 << RED | 1 << BLUE)));
            assert_eq!(
                g.choose_victim(GREEN, &mut fx),
                Err(PlayError::VictimNotAllowed)
            );
            // Green's choice is robbed; the other award passes the robber
            if let Some(next) = g.choose_victim(victim, &mut fx).expect("a listed victim") {
                g.run(next, &mut fx);
            }
            assert_eq!(g.players[GREEN as usize].score, 5);
            assert_eq!(g.robber(GREEN), None);
            assert!(fx.contains(&Effect::RobberStole {
                player: GREEN,
                victim,
                points: 5
            }));
            assert_eq!(g.players[RED as usize].score, 40);
            assert_eq!(g.players[BLUE as usize].score, 40);
        }
    }

    #[test]
    fn own_figures_and_zero_awards_are_never_robbed() {
        let mut g = game(vec![Expansion::Robbers]);
        set(&mut g, RED, 7, 0);
        testing::put_robber(&mut g, RED, Some(7));
        score(&mut g, &[award(RED, 4, 0), award(BLUE, 0, 1)]);
        assert_eq!(g.robber(RED), Some(7));
        assert_eq!(g.players[RED as usize].score, 11);
    }

    #[test]
    fn x5_robber_and_messenger() {
        // Red: meeple 18, messenger 25; Blue's robber on 25; Red completes a city worth 8
        let base = || {
            let mut g = game(vec![Expansion::Robbers, Expansion::Messages]);
            g.current = RED;
            set(&mut g, RED, 18, 25);
            testing::put_robber(&mut g, BLUE, Some(25));
            g
        };
        // the meeple moves 18 -> 26: no theft, no message
        let mut g = base();
        let mut fx = Vec::new();
        g.move_figure(award(RED, 8, 0), 0, &mut fx);
        assert_eq!(g.players[BLUE as usize].score, 0);
        assert_eq!(g.messages_earned(), 0);
        // the messenger moves 25 -> 33: Blue steals 4 (queued as his award)
        let mut g = base();
        g.move_figure(award(RED, 8, 0), 1, &mut fx);
        assert_eq!(
            g.head_award().map(|a| (a.player, a.points)),
            Some((BLUE, 4))
        );
        assert_eq!(g.robber(BLUE), None);
        // a 7-point road with the meeple 18 -> 25: a message, and no theft
        let mut g = base();
        g.move_figure(award(RED, 7, 0), 0, &mut fx);
        assert_eq!(g.messages_earned(), 1);
        assert!(g.head_award().is_none());
        assert_eq!(g.robber(BLUE), Some(25));
    }

    #[test]
    fn track_spaces_and_theft() {
        assert_eq!(space(0), 0);
        assert_eq!(space(49), 49);
        assert_eq!(space(50), 0);
        assert_eq!(space(123), 23);
        assert_eq!(robbery(9), 5);
        assert_eq!(robbery(8), 4);
        assert_eq!(robbery(1), 1);
    }
}
