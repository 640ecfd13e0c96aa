//! The score track, for the expansions that play on it: The Robbers (a robber on a track
//! space steals half of an award that moves a figure off that space) and The Messages
//! (a second score figure per player, the choice of figure for every award, and a message
//! earned by landing on a dark space).
//!
//! Without these expansions points go straight to the players' scores. With them, every
//! award of a scoring round joins a queue that is worked off in order: the receiving
//! player chooses the figure (Messages), robbers steal, messages are earned; a decision
//! pauses the queue and the turn goes on once it is empty. When the figures of several
//! players leave a robber's space in one award batch (a tie in one feature), the robber's
//! owner chooses whom to rob before the first of them moves; a player chosen with
//! Messages may still dodge by moving the other figure, and then that robber robs nobody
//! in the batch.

use super::prelude::*;
use super::robbers::robbery;

/// Spaces on the score track.
pub const TRACK_SPACES: i32 = 50;

/// A transfer of points to one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Award {
    pub player: u8,
    pub points: i32,
    /// Awards of one feature share a batch (the scoring order moves whole batches).
    pub batch: u16,
    /// Robbery proceeds: they never trigger robbers.
    pub proceeds: bool,
}

/// A feature waiting for its place in the scoring order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderChoice {
    pub batch: u16,
    pub pos: Pos,
    pub spot: String,
}

/// The track space of a total.
pub fn space(total: i32) -> u8 {
    total.rem_euclid(TRACK_SPACES) as u8
}

impl Game {
    /// Robbers or Messages: points move figures on the track.
    pub(crate) fn track_mode(&self) -> bool {
        self.expansions.contains(Expansion::Robbers)
            || self.expansions.contains(Expansion::Messages)
    }

    /// The totals of a player's score figures: the scoring meeple and (Messages) the
    /// messenger.
    pub fn track(&self, player: u8) -> [i32; 2] {
        self.track.get(player as usize).copied().unwrap_or([0, 0])
    }

    /// Gives points: straight to the score, or into the award queue on the track.
    pub(crate) fn grant(
        &mut self,
        player: u8,
        points: i32,
        batch: u16,
        sink: &mut impl EffectSink,
    ) {
        if !self.track_mode() {
            self.players[player as usize].score += points;
            return;
        }
        let a = Award {
            player,
            points,
            batch,
            proceeds: false,
        };
        if self.phase == Phase::GameOver {
            // final scoring: one figure each, nothing to decide
            self.move_figure(a, 0, sink);
        } else {
            self.awards.push(a);
        }
    }

    /// Works off the award queue; returns true when a decision pauses it.
    pub(crate) fn process_awards(&mut self, sink: &mut impl EffectSink) -> bool {
        while let Some(&a) = self.awards.first() {
            // victims are chosen for one award batch
            self.victims.retain(|v| v.2 == a.batch);
            if a.points <= 0 || !self.players[a.player as usize].active {
                self.awards.remove(0);
                continue;
            }
            if self.expansions.contains(Expansion::Messages) {
                self.phase = Phase::ChooseScoreFigure;
                return true;
            }
            if self.victim_choice(0).is_some() {
                self.victim_figure = Some(0);
                self.phase = Phase::ChooseVictim;
                return true;
            }
            self.awards.remove(0);
            self.move_figure(a, 0, sink);
        }
        self.victims.clear();
        false
    }

    /// Applies the head award with the chosen figure (0 meeple, 1 messenger), then goes on.
    pub(crate) fn choose_score_figure(&mut self, figure: u8, sink: &mut impl EffectSink) {
        if self.awards.is_empty() {
            return;
        }
        self.victim_figure = Some(figure);
        self.continue_victim(sink);
    }

    /// Moves a score figure by an award: robbers on the space it leaves steal half (not
    /// from robbery proceeds, which take such a robber along); the active player may
    /// earn the round's message.
    pub(crate) fn move_figure(&mut self, a: Award, figure: u8, sink: &mut impl EffectSink) {
        let p = a.player as usize;
        let f = figure.min(1) as usize;
        let from = space(self.track[p][f]);
        self.track[p][f] += a.points;
        self.players[p].score += a.points;
        let to = space(self.track[p][f]);
        if sink.enabled() && self.expansions.contains(Expansion::Messages) {
            sink.push(Effect::ScoreFigureMoved {
                player: a.player,
                figure: if f == 0 { "meeple" } else { "messenger" }.to_string(),
                total: self.track[p][f],
            });
        }
        let n = self.players.len();
        for q in 0..n {
            if q == p || self.robbers[q] != Some(from) {
                continue;
            }
            if a.proceeds {
                // rogue points: the robber gains nothing and moves along
                self.robbers[q] = Some(to);
                continue;
            }
            // a robber whose owner chose a victim in this batch robs only that player
            if let Some(k) = self
                .victims
                .iter()
                .position(|v| v.0 as usize == q && v.2 == a.batch)
            {
                if self.victims[k].1 != a.player {
                    continue;
                }
                self.victims.remove(k);
            }
            let stolen = robbery(a.points);
            self.robbers[q] = None;
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
            if self.phase == Phase::GameOver {
                self.move_figure(proceeds, 0, sink);
            } else {
                self.awards.insert(0, proceeds);
            }
        }
        // a message for the active player landing on an empty dark space
        if self.expansions.contains(Expansion::Messages)
            && self.phase != Phase::GameOver
            && a.player == self.current
            && to.is_multiple_of(5)
            && !self.message_round_earned
            && !self.someone_else_on(a.player, to)
        {
            self.message_round_earned = true;
            self.messages_earned += 1;
            if sink.enabled() {
                sink.push(Effect::MessageEarned { player: a.player });
            }
        }
    }

    pub(crate) fn someone_else_on(&self, player: u8, s: u8) -> bool {
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        (0..self.players.len())
            .any(|q| q != player as usize && (0..figures).any(|f| space(self.track[q][f]) == s))
    }

    /// Messages, before final scoring: each player's two totals become one; a robber left
    /// beside no other player's figure goes home.
    pub(crate) fn merge_score_figures(&mut self) {
        if !self.expansions.contains(Expansion::Messages) {
            return;
        }
        for t in self.track.iter_mut() {
            t[0] += t[1];
            t[1] = 0;
        }
        for q in 0..self.players.len() {
            if let Some(s) = self.robbers[q] {
                let beside =
                    (0..self.players.len()).any(|p| p != q && space(self.track[p][0]) == s);
                if !beside {
                    self.robbers[q] = None;
                }
            }
        }
    }
}

/// What the robbers' and messages' unit tests share: three players, totals set as the
/// worked examples state them, awards worked off with the meeple.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::game::GameConfig;

    pub(crate) const RED: u8 = 0;

    pub(crate) const BLUE: u8 = 1;

    pub(crate) const GREEN: u8 = 2;

    pub(crate) fn game(expansions: Vec<Expansion>) -> Game {
        let (g, _) = Game::new(&GameConfig {
            players: 3,
            expansions,
            tile_order: None,
            seed: 5,
        })
        .expect("set-up");
        g
    }

    pub(crate) fn set(g: &mut Game, p: u8, meeple: i32, messenger: i32) {
        g.track[p as usize] = [meeple, messenger];
        g.players[p as usize].score = meeple + messenger;
    }

    pub(crate) fn award(player: u8, points: i32, batch: u16) -> Award {
        Award {
            player,
            points,
            batch,
            proceeds: false,
        }
    }

    /// Queues the awards and works them off with the meeple.
    pub(crate) fn score(g: &mut Game, awards: &[Award]) -> Vec<Effect> {
        let mut fx = Vec::new();
        g.awards.extend_from_slice(awards);
        assert!(!g.process_awards(&mut fx), "no decision without Messages");
        fx
    }
}
