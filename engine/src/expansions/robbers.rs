//! The Robbers: after a robber tile the active player, then the next player with a robber
//! in the supply, may put a robber on a track space holding another player's score figure;
//! a figure leaving that space is robbed of half its points.

use super::prelude::*;
use super::score_track::space;

/// Half of the points, rounded up (what a robber steals).
pub fn robbery(points: i32) -> i32 {
    points - points / 2
}

impl Game {
    /// The space of a player's robber, `None` while it is in the supply.
    pub fn robber(&self, player: u8) -> Option<u8> {
        self.robbers.get(player as usize).copied().flatten()
    }

    /// Robbers: before the head award moves score figure `figure` of its player off a
    /// robber's space, the first robber whose owner must choose whom to rob, with the
    /// players to choose from (a bit per seat): the head award's player and every other
    /// player with an award later in the same batch and a score figure on that space
    /// (with Messages that player may still move the other figure). `None` when nobody
    /// has a real choice (fewer than two victims) or has chosen already.
    pub(crate) fn victim_choice(&self, figure: u8) -> Option<(u8, u8)> {
        if !self.expansions.contains(Expansion::Robbers) || self.phase == Phase::GameOver {
            return None;
        }
        let a = *self.awards.first()?;
        if a.proceeds || a.points <= 0 {
            return None;
        }
        let p = a.player as usize;
        let from = space(*self.track.get(p)?.get(figure.min(1) as usize)?);
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        for q in 0..self.players.len() {
            if q == p
                || self.robbers[q] != Some(from)
                || self
                    .victims
                    .iter()
                    .any(|v| v.0 as usize == q && v.2 == a.batch)
            {
                continue;
            }
            let mut victims = 1u8 << p;
            for b in &self.awards[1..] {
                let y = b.player as usize;
                if b.batch == a.batch
                    && !b.proceeds
                    && b.points > 0
                    && y != q
                    && self.players[y].active
                    && (0..figures).any(|f| space(self.track[y][f]) == from)
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

    /// Robbers: the deciding robber's owner robs `victim` in this award batch.
    pub(crate) fn choose_victim(
        &mut self,
        victim: u8,
        sink: &mut impl EffectSink,
    ) -> Result<(), PlayError> {
        let (owner, victims) = self
            .victim_choice(self.victim_figure.unwrap_or(0))
            .ok_or(PlayError::VictimNotAllowed)?;
        if victim >= 8 || victims & (1 << victim) == 0 {
            return Err(PlayError::VictimNotAllowed);
        }
        let batch = self.awards.first().map_or(0, |a| a.batch);
        self.victims.push((owner, victim, batch));
        self.continue_victim(sink);
        Ok(())
    }

    /// The head award, its figure chosen: another robber's choice, or the move and the
    /// rest of the queue.
    pub(crate) fn continue_victim(&mut self, sink: &mut impl EffectSink) {
        let figure = self.victim_figure.unwrap_or(0);
        if let Some(&a) = self.awards.first() {
            if a.points > 0 && self.players[a.player as usize].active {
                if self.victim_choice(figure).is_some() {
                    self.phase = Phase::ChooseVictim;
                    return;
                }
                self.awards.remove(0);
                self.victim_figure = None;
                self.move_figure(a, figure, sink);
            }
        }
        self.victim_figure = None;
        self.run(Stage::Awards, sink);
    }

    /// Track spaces where player `p` may put a robber: those holding another player's
    /// score figure.
    pub fn robber_spaces(&self, p: u8) -> Vec<u8> {
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        let mut v: Vec<u8> = (0..self.players.len())
            .filter(|q| *q != p as usize && self.players[*q].active)
            .flat_map(|q| (0..figures).map(move |f| (q, f)))
            .map(|(q, f)| space(self.track[q][f]))
            .collect();
        v.sort();
        v.dedup();
        v
    }

    /// The player deciding on a robber now (the active player, then the first player
    /// clockwise whose robber is in the supply).
    pub(crate) fn robber_decider(&self) -> u8 {
        self.robber_second.unwrap_or(self.current)
    }

    /// Starts the robber placement after a robber tile, or goes on.
    pub(crate) fn start_robbers(&mut self) -> bool {
        self.robber_second = None;
        if !self.robber_spaces(self.current).is_empty() {
            self.phase = Phase::PlaceRobber;
            return true;
        }
        self.next_robber_placer()
    }

    /// After the active player's robber decision: the first player clockwise whose robber
    /// is in the supply may place theirs.
    pub(crate) fn next_robber_placer(&mut self) -> bool {
        if self.robber_second.is_some() {
            self.robber_second = None;
            return false;
        }
        let n = self.players.len() as u8;
        for k in 1..n {
            let q = (self.current + k) % n;
            if self.players[q as usize].active && self.robbers[q as usize].is_none() {
                if self.robber_spaces(q).is_empty() {
                    return false;
                }
                self.robber_second = Some(q);
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
            self.robbers[player as usize] = Some(s);
        }
        Ok(!self.next_robber_placer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
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
        g.robbers[BLUE as usize] = Some(17);
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
            g.robbers[BLUE as usize] = Some(17);
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
        g.robbers[RED as usize] = Some(12);
        g.robbers[BLUE as usize] = Some(20);
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
            g.robbers[GREEN as usize] = Some(30);
            g.awards
                .extend_from_slice(&[award(RED, 10, 0), award(BLUE, 10, 0)]);
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
            g.choose_victim(victim, &mut fx).expect("a listed victim");
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
        g.robbers[RED as usize] = Some(7);
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
            g.robbers[BLUE as usize] = Some(25);
            g
        };
        // the meeple moves 18 -> 26: no theft, no message
        let mut g = base();
        let mut fx = Vec::new();
        g.move_figure(award(RED, 8, 0), 0, &mut fx);
        assert_eq!(g.players[BLUE as usize].score, 0);
        assert_eq!(g.messages_earned, 0);
        // the messenger moves 25 -> 33: Blue steals 4 (queued as his award)
        let mut g = base();
        g.move_figure(award(RED, 8, 0), 1, &mut fx);
        assert_eq!(
            g.awards.first().map(|a| (a.player, a.points)),
            Some((BLUE, 4))
        );
        assert_eq!(g.robber(BLUE), None);
        // a 7-point road with the meeple 18 -> 25: a message, and no theft
        let mut g = base();
        g.move_figure(award(RED, 7, 0), 0, &mut fx);
        assert_eq!(g.messages_earned, 1);
        assert!(g.awards.is_empty());
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
