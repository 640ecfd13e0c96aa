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

use crate::catalog::FeatureKind;
use crate::event::Effect;
use crate::expansions::{self, Expansion};
use crate::figures::FigureKind;
use crate::game::{EffectSink, Game, Phase, PlayError};
use crate::geometry::Pos;

/// Spaces on the score track.
pub const TRACK_SPACES: i32 = 50;

/// Message tiles (The Messages), by number.
pub const MESSAGES: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

/// Points instead of a message's action.
pub const MESSAGE_POINTS: i32 = 2;

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

/// What the turn does once the award queue is empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AwardStage {
    /// The abbot's return in the figure phase: on to ferries and scoring.
    Abbot,
    /// The scoring step: on to wagon moves and messages.
    Scoring,
    /// A message's points: on to the next message or the end of the part.
    Message,
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

/// Half of the points, rounded up (what a robber steals).
pub fn robbery(points: i32) -> i32 {
    points - points / 2
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

    /// The space of a player's robber, `None` while it is in the supply.
    pub fn robber(&self, player: u8) -> Option<u8> {
        self.robbers.get(player as usize).copied().flatten()
    }

    /// The message tile drawn and waiting for the active player's choice.
    pub fn message_drawn(&self) -> Option<u8> {
        self.message_drawn
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
        self.drain_awards(sink);
    }

    /// Continues the queue, then the turn from where the awards came.
    pub(crate) fn drain_awards(&mut self, sink: &mut impl EffectSink) {
        if self.process_awards(sink) {
            return;
        }
        match self.award_stage {
            AwardStage::Abbot => {
                self.award_stage = AwardStage::Scoring;
                self.after_figure(sink);
            }
            AwardStage::Scoring => self.continue_wagons(sink),
            AwardStage::Message => self.continue_messages(sink),
        }
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

    fn someone_else_on(&self, player: u8, s: u8) -> bool {
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        (0..self.players.len())
            .any(|q| q != player as usize && (0..figures).any(|f| space(self.track[q][f]) == s))
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
    fn next_robber_placer(&mut self) -> bool {
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

    // ----- The Messages -----------------------------------------------------------------

    /// After the wagon moves: the earned messages, then the end of the part.
    pub(crate) fn continue_messages(&mut self, sink: &mut impl EffectSink) {
        if !self.players[self.current as usize].active {
            self.messages_earned = 0;
        }
        if self.messages_earned > 0 && !self.message_stack.is_empty() {
            self.messages_earned -= 1;
            let m = self.message_stack.remove(0);
            self.message_drawn = Some(m);
            self.phase = Phase::ResolveMessage;
            if sink.enabled() {
                sink.push(Effect::MessageDrawn {
                    player: self.current,
                    message: m,
                });
            }
            return;
        }
        self.messages_earned = 0;
        self.end_turn_part(sink);
    }

    /// The options of the drawn message: its action (with the choices it needs) or 2 points.
    pub fn message_options(&self) -> Vec<MessageChoice> {
        let mut v = Vec::new();
        let Some(m) = self.message_drawn else {
            return v;
        };
        let me = self.current;
        match m {
            1..=3 => {
                let kind = match m {
                    1 => FeatureKind::Road,
                    2 => FeatureKind::City,
                    _ => FeatureKind::Monastery,
                };
                let mut best: Option<i32> = None;
                // (value, feature, the segment of the follower that names it)
                let mut cands: Vec<(i32, u16, u16)> = Vec::new();
                for f in &self.board.figures {
                    if f.owner != me || !f.kind.is_follower() || self.board.seg_kind(f.seg) != kind
                    {
                        continue;
                    }
                    let id = if kind.is_cloister() {
                        f.seg
                    } else {
                        self.board.find(f.seg)
                    };
                    if cands.iter().any(|c| c.1 == id) {
                        continue;
                    }
                    let v = self.final_feature_value(id, me);
                    cands.push((v, id, f.seg));
                    best = Some(best.map_or(v, |b: i32| b.min(v)));
                }
                for (val, _, named) in cands {
                    if Some(val) == best {
                        let (pos, spot) = self.seg_place(named);
                        v.push(MessageChoice::Feature {
                            pos,
                            spot,
                            points: val,
                        });
                    }
                }
            }
            4 => {
                if self.tiles_left() > 0 {
                    v.push(MessageChoice::ExtraTile);
                }
            }
            5..=7 => {
                let points = self.message_count(m, me) * MESSAGE_POINTS;
                if points > 0 {
                    v.push(MessageChoice::Points(points));
                }
            }
            _ => {
                let mut seen: Vec<(FigureKind, u16)> = Vec::new();
                for f in &self.board.figures {
                    if f.owner != me || !f.kind.is_follower() || seen.contains(&(f.kind, f.seg)) {
                        continue;
                    }
                    seen.push((f.kind, f.seg));
                    let (pos, spot) = self.seg_place(f.seg);
                    v.push(MessageChoice::Follower {
                        figure: f.kind,
                        pos,
                        spot,
                    });
                }
            }
        }
        v
    }

    fn seg_place(&self, seg: u16) -> (Pos, String) {
        let pt = self.board.tiles()[self.board.seg_tile(seg)];
        (pt.pos, self.spot_name_of(seg))
    }

    /// Messages 5–7: pennants in cities with your knight, your knights, your farmers.
    fn message_count(&self, m: u8, me: u8) -> i32 {
        let mine = |f: &&crate::board::BoardFigure| f.owner == me && f.kind.is_follower();
        match m {
            5 => {
                let mut cities: Vec<u16> = Vec::new();
                for f in self.board.figures.iter().filter(mine) {
                    if self.board.seg_kind(f.seg) == FeatureKind::City {
                        let r = self.board.find(f.seg);
                        if !cities.contains(&r) {
                            cities.push(r);
                        }
                    }
                }
                cities.iter().map(|c| self.board.pennants(*c) as i32).sum()
            }
            6 => self
                .board
                .figures
                .iter()
                .filter(mine)
                .filter(|f| self.board.seg_kind(f.seg) == FeatureKind::City)
                .count() as i32,
            _ => self
                .board
                .figures
                .iter()
                .filter(mine)
                .filter(|f| self.board.seg_kind(f.seg) == FeatureKind::Field)
                .count() as i32,
        }
    }

    /// A feature's final-scoring value (inns, cathedrals, mage and witch included; fields
    /// 3 per completed city, +1 with `player`'s pig).
    pub(crate) fn final_feature_value(&self, seg: u16, player: u8) -> i32 {
        let kind = self.board.seg_kind(seg);
        match kind {
            FeatureKind::Road | FeatureKind::City => {
                let tiles = self.board.distinct_tiles(seg);
                let v = expansions::final_value(
                    kind,
                    tiles,
                    self.board.pennants(seg),
                    self.board.flags(seg),
                    0,
                );
                self.magic_value(seg, v, tiles)
            }
            FeatureKind::Monastery | FeatureKind::Garden => {
                let p = self.board.tiles()[self.board.seg_tile(seg)].pos;
                expansions::final_value(kind, 1 + self.board.surrounding_tiles(p), 0, 0, 0)
            }
            FeatureKind::Field => {
                let done = self.board.completed_cities(seg, &mut Vec::new()) as i32;
                let root = self.board.find(seg);
                let pig = self.board.figures.iter().any(|f| {
                    f.owner == player && f.kind == FigureKind::Pig && self.board.find(f.seg) == root
                });
                (3 + if pig {
                    expansions::PIG_BONUS_PER_CITY
                } else {
                    0
                }) * done
            }
            _ => 0,
        }
    }

    /// Resolves the drawn message with `choice` (`None`: take the 2 points).
    pub(crate) fn resolve_message(
        &mut self,
        choice: Option<&MessageChoice>,
        sink: &mut impl EffectSink,
    ) -> Result<(), PlayError> {
        let options = self.message_options();
        if let Some(c) = choice {
            if !options.contains(c) {
                return Err(PlayError::MessageNotAllowed);
            }
        }
        let Some(m) = self.message_drawn.take() else {
            return Err(PlayError::MessageNotAllowed);
        };
        self.message_stack.push(m);
        self.message_round_earned = false;
        self.award_stage = AwardStage::Message;
        let me = self.current;
        match choice {
            None => self.grant(me, MESSAGE_POINTS, 2000, sink),
            Some(MessageChoice::Feature { points, .. }) | Some(MessageChoice::Points(points)) => {
                self.grant(me, *points, 2000, sink)
            }
            Some(MessageChoice::ExtraTile) => self.extra_tiles += 1,
            Some(MessageChoice::Follower { figure, pos, spot }) => {
                let seg = self
                    .seg_at(*pos, spot)
                    .ok_or(PlayError::MessageNotAllowed)?;
                let points = self.final_feature_value(seg, me);
                let i = self
                    .board
                    .figures
                    .iter()
                    .position(|f| f.owner == me && f.kind == *figure && f.seg == seg)
                    .ok_or(PlayError::MessageNotAllowed)?;
                self.grant(me, points, 2000, sink);
                self.return_figure(i, sink);
                self.return_lonely_specials(sink);
            }
        }
        self.drain_awards(sink);
        Ok(())
    }

    pub(crate) fn seg_at(&self, pos: Pos, spot: &str) -> Option<u16> {
        let j = self.board.tile_index_at(pos)?;
        let pt = self.board.tiles()[j];
        let tt = pt.tile_type();
        let s = tt.parse_spot(spot)?;
        if matches!(s, crate::geometry::Spot::Corner(_)) {
            return None;
        }
        tt.feature_at(pt.rotation, s).map(|i| self.board.seg(j, i))
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

/// A choice for a drawn message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageChoice {
    /// Messages 1–3: score this smallest feature (named by a spot on one of its tiles).
    Feature { pos: Pos, spot: String, points: i32 },
    /// Message 4: an extra turn part.
    ExtraTile,
    /// Messages 5–7: these points.
    Points(i32),
    /// Message 8: score this follower's feature and take it back.
    Follower {
        figure: FigureKind,
        pos: Pos,
        spot: String,
    },
}

#[cfg(test)]
mod tests {
    //! The robbers' and messages' worked examples (`robbers.md` RB1–RB4, `messages.md`
    //! MS2 and MS5, `interactions.md` X5) on the track itself: the players' totals are set
    //! as the examples state them, then awards move figures.
    use super::*;
    use crate::game::GameConfig;

    const RED: u8 = 0;
    const BLUE: u8 = 1;
    const GREEN: u8 = 2;

    fn game(expansions: Vec<Expansion>) -> Game {
        let (g, _) = Game::new(&GameConfig {
            players: 3,
            expansions,
            tile_order: None,
            seed: 5,
        })
        .expect("set-up");
        g
    }

    fn set(g: &mut Game, p: u8, meeple: i32, messenger: i32) {
        g.track[p as usize] = [meeple, messenger];
        g.players[p as usize].score = meeple + messenger;
    }

    fn award(player: u8, points: i32, batch: u16) -> Award {
        Award {
            player,
            points,
            batch,
            proceeds: false,
        }
    }

    /// Queues the awards and works them off with the meeple.
    fn score(g: &mut Game, awards: &[Award]) -> Vec<Effect> {
        let mut fx = Vec::new();
        g.awards.extend_from_slice(awards);
        assert!(!g.process_awards(&mut fx), "no decision without Messages");
        fx
    }

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
    fn messages_only_for_the_active_player_on_an_empty_dark_space_once_a_round() {
        let mut g = game(vec![Expansion::Messages]);
        g.current = RED;
        set(&mut g, RED, 22, 0);
        set(&mut g, BLUE, 15, 0);
        let mut fx = Vec::new();
        // MS2: Blue lands on 20 during Red's turn: nothing
        g.move_figure(award(BLUE, 5, 0), 0, &mut fx);
        assert_eq!(g.messages_earned, 0);
        // Red 22 -> 32: not dark
        g.move_figure(award(RED, 10, 0), 0, &mut fx);
        assert_eq!(g.messages_earned, 0);
        // Red's messenger 0 -> 20: Blue stands there
        g.move_figure(award(RED, 20, 0), 1, &mut fx);
        assert_eq!(g.messages_earned, 0);
        // Red 32 -> 35: dark and empty: a message
        g.move_figure(award(RED, 3, 0), 0, &mut fx);
        assert_eq!(g.messages_earned, 1);
        // the same round earns no second one
        g.move_figure(award(RED, 5, 0), 0, &mut fx);
        assert_eq!(g.messages_earned, 1);
        // a new round may
        g.message_round_earned = false;
        g.move_figure(award(RED, 5, 0), 0, &mut fx);
        assert_eq!(g.messages_earned, 2);
    }

    #[test]
    fn ms5_score_figures_are_summed_before_final_scoring() {
        let mut g = game(vec![Expansion::Messages, Expansion::Robbers]);
        set(&mut g, RED, 47, 23);
        set(&mut g, BLUE, 3, 10);
        // Green's robber beside Blue's messenger only: it goes home when the figures merge
        g.robbers[GREEN as usize] = Some(10);
        g.robbers[BLUE as usize] = Some(20);
        g.merge_score_figures();
        assert_eq!(g.track(RED), [70, 0]);
        assert_eq!(g.players[RED as usize].score, 70);
        assert_eq!(g.robber(GREEN), None);
        assert_eq!(g.robber(BLUE), Some(20), "Red's merged figure is on 20");
    }

    #[test]
    fn with_messages_every_award_asks_for_a_figure() {
        let mut g = game(vec![Expansion::Messages]);
        g.awards.push(award(BLUE, 4, 0));
        let mut fx = Vec::new();
        assert!(g.process_awards(&mut fx));
        assert_eq!(g.phase, Phase::ChooseScoreFigure);
        assert_eq!(g.decider(), BLUE);
    }

    /// Red's knight alone in (1,0)'s city cap (1 tile, incomplete), then a message drawn.
    fn with_message(m: u8) -> Game {
        let (mut g, _) = Game::new(&GameConfig {
            players: 2,
            expansions: vec![Expansion::Messages],
            tile_order: Some(vec!["base/D".into(), "base/U".into(), "base/U".into()]),
            seed: 5,
        })
        .expect("set-up");
        use crate::game::Action;
        use crate::geometry::Rotation;
        g.play(
            RED,
            &Action::PlaceTile {
                x: 1,
                y: 0,
                rotation: Rotation::R0,
            },
        )
        .expect("tile");
        g.play(
            RED,
            &Action::PlaceFigure {
                figure: FigureKind::Follower,
                spot: "N".into(),
            },
        )
        .expect("knight");
        g.message_drawn = Some(m);
        g.current = RED;
        g.phase = Phase::ResolveMessage;
        g
    }

    #[test]
    fn message_values_follow_the_board() {
        // 6: 2 points per knight
        assert_eq!(
            with_message(6).message_options(),
            vec![MessageChoice::Points(2)]
        );
        // 7: no farmer, 5: no pennant: only the 2 points
        assert!(with_message(7).message_options().is_empty());
        assert!(with_message(5).message_options().is_empty());
        // 2: the smallest city with a knight of Red: 1 tile, incomplete
        assert_eq!(
            with_message(2).message_options(),
            vec![MessageChoice::Feature {
                pos: Pos::new(1, 0),
                spot: "N".into(),
                points: 1
            }]
        );
        // 1 and 3: no road, no monastery
        assert!(with_message(1).message_options().is_empty());
        assert!(with_message(3).message_options().is_empty());
        // 4: tiles remain: an extra tile
        assert_eq!(
            with_message(4).message_options(),
            vec![MessageChoice::ExtraTile]
        );
    }

    #[test]
    fn message_8_scores_a_follower_and_takes_it_back() {
        let mut g = with_message(8);
        let options = g.message_options();
        assert_eq!(
            options,
            vec![MessageChoice::Follower {
                figure: FigureKind::Follower,
                pos: Pos::new(1, 0),
                spot: "N".into()
            }]
        );
        let mut fx = Vec::new();
        g.resolve_message(Some(&options[0]), &mut fx)
            .expect("resolves");
        // the award asks which figure moves
        assert_eq!(g.phase, Phase::ChooseScoreFigure);
        g.choose_score_figure(1, &mut fx);
        assert_eq!(g.players[RED as usize].score, 1);
        assert_eq!(g.track(RED), [0, 1]);
        assert_eq!(
            g.players[RED as usize].supply[FigureKind::Follower as usize],
            7
        );
        assert_eq!(
            g.message_stack.last(),
            Some(&8),
            "the tile goes to the bottom"
        );
    }

    /// Plays `moves` (tile x, y, degrees, then a spot for a follower or `None`) from a
    /// sandbox pile, then puts message `m` before Red.
    fn board_then_message(tiles: &[&str], moves: &[(i32, i32, i64, Option<&str>)], m: u8) -> Game {
        use crate::game::Action;
        use crate::geometry::Rotation;
        let (mut g, _) = Game::new(&GameConfig {
            players: 2,
            expansions: vec![Expansion::Messages],
            tile_order: Some(tiles.iter().map(|s| s.to_string()).collect()),
            seed: 5,
        })
        .expect("set-up");
        for &(x, y, deg, spot) in moves {
            let p = g.decider();
            let rotation = Rotation::from_degrees(deg).expect("rotation");
            g.play(p, &Action::PlaceTile { x, y, rotation })
                .expect("tile");
            let a = match spot {
                Some(s) => Action::PlaceFigure {
                    figure: FigureKind::Follower,
                    spot: s.into(),
                },
                None => Action::Pass,
            };
            g.play(p, &a).expect("figure");
            // no awards to move in these boards (nothing with a follower completes)
            assert!(g.awards.is_empty());
        }
        g.message_drawn = Some(m);
        g.current = RED;
        g.phase = Phase::ResolveMessage;
        g
    }

    #[test]
    fn ms3_coats_of_arms_without_majority() {
        // Red's knight in A = {T0, (0,1), (0,2)} with 2 pennants and in B = (1,1) with 1
        let g = board_then_message(
            &["base/F", "base/M", "base/F", "base/U"],
            &[
                (0, 1, 90, Some("N")),
                (0, 2, 180, None),
                (1, 1, 90, Some("N")),
            ],
            5,
        );
        assert_eq!(g.message_options(), vec![MessageChoice::Points(6)]);
    }

    #[test]
    fn ms4_score_a_farmer_and_take_it_back() {
        // Red's farmer in the field north of the completed caps C1 and C2
        let mut g = board_then_message(
            &["base/D", "base/E", "base/E", "base/U"],
            &[(1, 0, 0, None), (0, 1, 180, None), (1, 1, 180, Some("NNW"))],
            8,
        );
        let options = g.message_options();
        assert_eq!(
            options,
            vec![MessageChoice::Follower {
                figure: FigureKind::Follower,
                pos: Pos::new(1, 1),
                spot: "NNW".into()
            }]
        );
        let mut fx = Vec::new();
        g.resolve_message(Some(&options[0]), &mut fx)
            .expect("resolves");
        g.choose_score_figure(0, &mut fx);
        // 2 completed cities × 3, and the farmer comes home
        assert_eq!(g.players[RED as usize].score, 6);
        assert_eq!(
            g.players[RED as usize].supply[FigureKind::Follower as usize],
            7
        );
    }

    /// MS1: Red's knights in X (3 tiles + 1 pennant, value 4) and Y (2 tiles, value 2); Red
    /// has just moved the meeple 12 -> 15 and earned a message; the stack holds
    /// "smallest city" then "2 points per knight".
    fn ms1(blue_on_five: bool) -> Game {
        let mut g = board_then_message(
            &[
                "base/F", "base/G", "base/G", "base/G", "base/U", "base/U", "base/U",
            ],
            &[
                (0, 1, 90, Some("N")),
                (0, 2, 90, None),
                (1, 1, 90, Some("N")),
                (1, 2, 90, None),
            ],
            2,
        );
        g.message_drawn = None;
        set(&mut g, RED, 15, 3);
        if blue_on_five {
            set(&mut g, BLUE, 5, 0);
        }
        g.message_stack = vec![2, 6, 1, 3, 4, 5, 7, 8];
        g.messages_earned = 1;
        let mut fx = Vec::new();
        g.award_stage = AwardStage::Message;
        g.continue_messages(&mut fx);
        assert_eq!(g.message_drawn, Some(2));
        // smallest city: Y, not X
        let options = g.message_options();
        assert_eq!(
            options,
            vec![MessageChoice::Feature {
                pos: Pos::new(1, 1),
                spot: "N".into(),
                points: 2
            }]
        );
        g.resolve_message(Some(&options[0]), &mut fx).expect("Y");
        // Red puts the 2 points on the messenger: 3 -> 5
        g.choose_score_figure(1, &mut fx);
        g
    }

    #[test]
    fn ms1_a_message_chain() {
        let mut g = ms1(false);
        // 5 is dark and empty: the second message is drawn
        assert_eq!(g.message_drawn, Some(6));
        assert_eq!(g.message_options(), vec![MessageChoice::Points(4)]);
        let mut fx = Vec::new();
        g.resolve_message(Some(&MessageChoice::Points(4)), &mut fx)
            .expect("2 per knight");
        g.choose_score_figure(0, &mut fx);
        assert_eq!(g.track(RED), [19, 5]);
        assert_eq!(g.players[RED as usize].score, 24);
        assert_eq!(g.message_drawn, None, "19 is not dark: the chain ends");
    }

    #[test]
    fn ms1_no_second_message_beside_another_players_figure() {
        let g = ms1(true);
        assert_eq!(g.track(RED), [15, 5]);
        assert_eq!(g.message_drawn, None);
    }

    #[test]
    fn x2_wagon_gold_and_messages_in_order() {
        use crate::game::Action;
        use crate::geometry::Rotation;
        let (mut g, _) = Game::new(&GameConfig {
            players: 2,
            expansions: vec![
                Expansion::AbbeyMayor,
                Expansion::GoldMines,
                Expansion::Messages,
            ],
            tile_order: Some(
                [
                    "gm/01-frrf",
                    "base/W",
                    "base/B",
                    "base/B",
                    "base/E",
                    "base/U",
                    "base/A",
                    "base/U",
                    "base/U",
                ]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            ),
            seed: 5,
        })
        .expect("set-up");
        let play = |g: &mut Game, a: Action| {
            let p = g.decider();
            g.play(p, &a).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        };
        let tile = |x, y, d| Action::PlaceTile {
            x,
            y,
            rotation: Rotation::from_degrees(d).expect("rotation"),
        };
        // Red: the gold tile (monastery, road W–S); the second ingot goes on T0 by itself;
        // the wagon on the road
        play(&mut g, tile(1, 0, 90));
        assert_eq!(g.ingots_at(Pos::new(0, 0)), 1);
        play(
            &mut g,
            Action::PlaceFigure {
                figure: FigureKind::Wagon,
                spot: "W".into(),
            },
        );
        for (x, y, d) in [(-1, 0, 0), (0, -1, 0), (2, 0, 0), (0, 1, 180), (-2, 0, 0)] {
            play(&mut g, tile(x, y, d));
            play(&mut g, Action::Pass);
        }
        // Red: meeple on 11, messenger on 2; the message stack starts with "smallest monastery"
        set(&mut g, RED, 11, 2);
        g.message_stack = vec![3, 1, 2, 4, 5, 6, 7, 8];
        // Red's road end at a monastery completes the road of 4 tiles carrying 2 ingots
        play(&mut g, tile(1, -1, 180));
        play(&mut g, Action::Pass);
        // 1. scoring: +4 on the meeple, 11 -> 15, a message; the gold; the wagon freed
        assert_eq!(g.phase, Phase::ChooseScoreFigure);
        play(
            &mut g,
            Action::ChooseScoreFigure {
                figure: crate::game::ScoreFigure::Meeple,
            },
        );
        assert_eq!(g.track(RED), [15, 2]);
        assert_eq!(g.players[RED as usize].gold, 2);
        // 2. the wagon moves onto the monastery (5 neighbours)
        assert_eq!(g.phase, Phase::MoveWagon);
        play(
            &mut g,
            Action::MoveWagon {
                x: 1,
                y: 0,
                spot: "C".into(),
            },
        );
        // 3. the message: smallest monastery = the wagon's: 1 + 5
        assert_eq!(g.phase, Phase::ResolveMessage);
        assert_eq!(
            g.message_options(),
            vec![MessageChoice::Feature {
                pos: Pos::new(1, 0),
                spot: "C".into(),
                points: 6
            }]
        );
        play(
            &mut g,
            Action::MessageFeature {
                x: 1,
                y: 0,
                spot: "C".into(),
            },
        );
        play(
            &mut g,
            Action::ChooseScoreFigure {
                figure: crate::game::ScoreFigure::Messenger,
            },
        );
        // messenger 2 -> 8: no chain
        assert_eq!(g.track(RED), [15, 8]);
        assert_eq!(g.players[RED as usize].score, 23);
        assert_eq!(g.phase, Phase::PlaceTile);
        assert_eq!(g.current, BLUE);
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
