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

/// The score track's state, held by a game with The Robbers or The Messages only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreTrack {
    /// Each player's score figures (meeple, messenger) by total.
    totals: Vec<[i32; 2]>,
    /// Awards waiting to move score figures.
    awards: Vec<Award>,
    /// The score figure the head award moves once chosen (Messages) or once its victim
    /// is chosen (Robbers).
    figure: Option<u8>,
    /// Features completed together, waiting for their order.
    order: Vec<OrderChoice>,
    /// The order chosen so far (batches).
    chosen: Vec<u16>,
}

impl ScoreTrack {
    /// The track of a game with `players` seats.
    pub(crate) fn new(players: u8) -> ScoreTrack {
        ScoreTrack {
            totals: vec![[0, 0]; players as usize],
            awards: Vec::new(),
            figure: None,
            order: Vec::new(),
            chosen: Vec::new(),
        }
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.totals.capacity() * std::mem::size_of::<[i32; 2]>()
            + self.awards.capacity() * std::mem::size_of::<Award>()
            + self.order.capacity() * std::mem::size_of::<OrderChoice>()
            + self.chosen.capacity() * 2
    }

    /// The awards waiting, the head first.
    pub(crate) fn awards(&self) -> &[Award] {
        &self.awards
    }

    /// The track space of player `p`'s score figure `f` (0 meeple, 1 messenger).
    pub(crate) fn space_of(&self, p: usize, f: usize) -> u8 {
        space(self.totals[p][f])
    }
}

impl Table {
    /// Robbers or Messages: points move figures on the track.
    pub(crate) fn track_mode(&self) -> bool {
        self.score_track.is_some()
    }

    /// The totals of a player's score figures: the scoring meeple and (Messages) the
    /// messenger.
    pub fn track(&self, player: u8) -> [i32; 2] {
        self.score_track
            .as_deref()
            .and_then(|t| t.totals.get(player as usize).copied())
            .unwrap_or([0, 0])
    }

    /// The head award of the queue.
    pub(crate) fn head_award(&self) -> Option<Award> {
        self.score_track.as_deref()?.awards.first().copied()
    }

    /// The score figure chosen for the head award (0 until chosen).
    pub(crate) fn award_figure(&self) -> u8 {
        self.score_track
            .as_deref()
            .and_then(|t| t.figure)
            .unwrap_or(0)
    }

    /// Points granted with the score track: into the award queue (returns false without
    /// the track: they go straight to the score).
    #[inline]
    pub(crate) fn track_points(
        &mut self,
        player: u8,
        points: i32,
        batch: u16,
        sink: &mut impl EffectSink,
    ) -> bool {
        let Some(track) = self.score_track.as_deref_mut() else {
            return false;
        };
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
            track.awards.push(a);
        }
        true
    }

    /// Works off the award queue; returns true when a decision pauses it.
    pub(crate) fn process_awards(&mut self, sink: &mut impl EffectSink) -> bool {
        while let Some(a) = self.head_award() {
            // victims are chosen for one award batch
            self.keep_victims_of(a.batch);
            if a.points <= 0 || !self.players[a.player as usize].active {
                self.pop_award();
                continue;
            }
            if self.expansions.contains(Expansion::Messages) {
                self.phase = Phase::ChooseScoreFigure;
                return true;
            }
            if self.victim_choice(0).is_some() {
                self.set_award_figure(Some(0));
                self.phase = Phase::ChooseVictim;
                return true;
            }
            self.pop_award();
            self.move_figure(a, 0, sink);
        }
        self.clear_victims();
        false
    }

    fn pop_award(&mut self) {
        if let Some(t) = self.score_track.as_deref_mut() {
            if !t.awards.is_empty() {
                t.awards.remove(0);
            }
        }
    }

    fn set_award_figure(&mut self, figure: Option<u8>) {
        if let Some(t) = self.score_track.as_deref_mut() {
            t.figure = figure;
        }
    }

    /// Applies the head award with the chosen figure (0 meeple, 1 messenger); returns
    /// where the turn goes on (`None`: a robber's owner chooses a victim first).
    pub(crate) fn choose_score_figure(
        &mut self,
        figure: u8,
        sink: &mut impl EffectSink,
    ) -> Option<Stage> {
        self.head_award()?;
        self.set_award_figure(Some(figure));
        self.continue_award(sink)
    }

    /// The head award, its figure chosen: a robber's choice of victim (`None`: pending),
    /// or the move and then the rest of the queue (the stage returned).
    pub(crate) fn continue_award(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        let figure = self.award_figure();
        if let Some(a) = self.head_award() {
            if a.points > 0 && self.players[a.player as usize].active {
                if self.victim_choice(figure).is_some() {
                    self.phase = Phase::ChooseVictim;
                    return None;
                }
                self.pop_award();
                self.set_award_figure(None);
                self.move_figure(a, figure, sink);
            }
        }
        self.set_award_figure(None);
        Some(Stage::Awards)
    }

    /// Moves a score figure by an award: robbers on the space it leaves steal half (not
    /// from robbery proceeds, which take such a robber along); the active player may
    /// earn the round's message.
    pub(crate) fn move_figure(&mut self, a: Award, figure: u8, sink: &mut impl EffectSink) {
        let Some(track) = self.score_track.as_deref_mut() else {
            return;
        };
        let p = a.player as usize;
        let f = figure.min(1) as usize;
        let from = space(track.totals[p][f]);
        track.totals[p][f] += a.points;
        let total = track.totals[p][f];
        self.players[p].score += a.points;
        let to = space(total);
        if sink.enabled() && self.expansions.contains(Expansion::Messages) {
            sink.push(Effect::ScoreFigureMoved {
                player: a.player,
                figure: if f == 0 { "meeple" } else { "messenger" }.to_string(),
                total,
            });
        }
        self.rob(a, from, to, sink);
        // a message for the active player landing on an empty dark space
        if self.phase != Phase::GameOver
            && a.player == self.current
            && to.is_multiple_of(5)
            && !self.someone_else_on(a.player, to)
        {
            self.earn_message(a.player, sink);
        }
    }

    /// Robbery proceeds: moved at once in final scoring, else first in the queue.
    pub(crate) fn queue_proceeds(&mut self, proceeds: Award, sink: &mut impl EffectSink) {
        if self.phase == Phase::GameOver {
            self.move_figure(proceeds, 0, sink);
        } else if let Some(t) = self.score_track.as_deref_mut() {
            t.awards.insert(0, proceeds);
        }
    }

    pub(crate) fn someone_else_on(&self, player: u8, s: u8) -> bool {
        let Some(track) = self.score_track.as_deref() else {
            return false;
        };
        let figures = if self.expansions.contains(Expansion::Messages) {
            2
        } else {
            1
        };
        (0..self.players.len())
            .any(|q| q != player as usize && (0..figures).any(|f| track.space_of(q, f) == s))
    }

    /// Final scoring: awards still queued (a resignation ended the game) are applied as
    /// they are, robbers robbing the first figure leaving their space; with Messages each
    /// player's two totals become one and a robber left beside no other player's figure
    /// goes home.
    pub(crate) fn settle_track(&mut self, sink: &mut impl EffectSink) {
        let Some(track) = self.score_track.as_deref_mut() else {
            return;
        };
        track.figure = None;
        let awards = std::mem::take(&mut track.awards);
        self.clear_victims();
        for a in awards {
            if a.points > 0 {
                self.move_figure(a, 0, sink);
            }
        }
        if !self.expansions.contains(Expansion::Messages) {
            return;
        }
        if let Some(track) = self.score_track.as_deref_mut() {
            for t in track.totals.iter_mut() {
                t[0] += t[1];
                t[1] = 0;
            }
        }
        self.robbers_home_alone();
    }

    /// Robbers / Messages, before scoring: the scoring order starts afresh; with several
    /// features (`cands`: position and a segment naming each, in the listed order), the
    /// active player orders them.
    pub(crate) fn note_scoring_order(&mut self, cands: &[(Pos, u16)]) {
        if self.score_track.is_none() {
            return;
        }
        let mut order = Vec::new();
        if cands.len() >= 2 {
            for (k, &(pos, root)) in cands.iter().enumerate() {
                // name the feature by a segment on its smallest tile
                let seg = self
                    .board
                    .members(self.board.find(root))
                    .find(|m| self.board.tiles()[self.board.seg_tile(*m)].pos == pos)
                    .unwrap_or(root);
                order.push(OrderChoice {
                    batch: k as u16,
                    pos,
                    spot: self.spot_name_of(seg),
                });
            }
        }
        if let Some(t) = self.score_track.as_deref_mut() {
            t.order = order;
            t.chosen.clear();
        }
    }

    /// Stage *scoring*, after the tile's features scored: with several of them on the
    /// score track the active player orders them. Returns whether that order is pending;
    /// otherwise the order is settled (listed, when the active player left during the
    /// turn).
    #[inline]
    pub(crate) fn ask_scoring_order(&mut self) -> bool {
        if self.scoring_order().len() >= 2 {
            if self.players[self.current as usize].active {
                self.phase = Phase::ScoringOrder;
                return true;
            }
            // the active player left during the turn
            self.listed_scoring_order();
        }
        self.clear_scoring_order();
        false
    }

    /// The features still waiting for their place in the scoring order.
    pub(crate) fn scoring_order(&self) -> &[OrderChoice] {
        self.score_track.as_deref().map_or(&[], |t| &t.order)
    }

    /// The scoring order is settled or dropped.
    pub(crate) fn clear_scoring_order(&mut self) {
        if let Some(t) = self.score_track.as_deref_mut() {
            t.order.clear();
        }
    }

    /// The active player puts the `k`th waiting feature next; the last one follows by
    /// itself. Returns the feature chosen, and whether the order is complete.
    pub(crate) fn choose_next_scored(&mut self, k: usize) -> Option<(OrderChoice, bool)> {
        let t = self.score_track.as_deref_mut()?;
        if k >= t.order.len() {
            return None;
        }
        let c = t.order.remove(k);
        t.chosen.push(c.batch);
        if t.order.len() <= 1 {
            if let Some(last) = t.order.pop() {
                t.chosen.push(last.batch);
            }
            return Some((c, true));
        }
        Some((c, false))
    }

    /// Nobody is left to choose the scoring order: the features not chosen yet score in
    /// the listed order.
    pub(crate) fn listed_scoring_order(&mut self) {
        if let Some(t) = self.score_track.as_deref_mut() {
            let rest: Vec<u16> = t.order.drain(..).map(|c| c.batch).collect();
            t.chosen.extend(rest);
        }
        self.order_awards();
    }

    /// Puts the queued feature awards in the chosen order (other awards stay after them).
    pub(crate) fn order_awards(&mut self) {
        let Some(t) = self.score_track.as_deref_mut() else {
            return;
        };
        let chosen = std::mem::take(&mut t.chosen);
        let key = |a: &Award| {
            chosen
                .iter()
                .position(|b| *b == a.batch)
                .unwrap_or(chosen.len() + a.batch as usize)
        };
        t.awards.sort_by_key(key);
    }
}

/// What the robbers' and messages' unit tests share: three players, totals set as the
/// worked examples state them, awards worked off with the meeple.
/// The score track's decision (Robbers, Messages): the next completed feature to score.
pub(crate) struct Track;

impl Hooks for Track {
    /// Points move the score figures on the track: into the award queue.
    #[inline]
    fn points_granted(
        &self,
        t: &mut Table,
        player: u8,
        points: i32,
        batch: u16,
        sink: &mut impl EffectSink,
    ) -> bool {
        t.track_points(player, points, batch, sink)
    }

    /// With several features, the active player orders them.
    fn features_to_score(&self, t: &mut Table, cands: &[(u8, Pos, u16)]) {
        if t.track_mode() {
            let mut listed = [(Pos::new(0, 0), 0u16); 24];
            for (l, &(_, pos, root)) in listed.iter_mut().zip(cands.iter()) {
                *l = (pos, root);
            }
            t.note_scoring_order(&listed[..cands.len()]);
        }
    }

    /// Awards still queued (a resignation ended the game) are applied as they are, robbers
    /// robbing the first figure leaving their space; the score figures merge.
    fn game_ends(&self, t: &mut Table, sink: &mut impl EffectSink) {
        t.settle_track(sink);
    }

    fn heap_bytes(&self, t: &Table) -> usize {
        t.score_track.as_deref().map_or(0, |s| s.heap_bytes())
    }

    /// The score figures at 0 (the track of The Robbers and of Messages).
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::Robbers) || t.expansions.contains(Expansion::Messages) {
            t.score_track = Some(Box::new(ScoreTrack::new(t.players.len() as u8)));
        }
    }

    /// The awards of a scoring are followed by the wagons.
    fn scoring_begins(&self, t: &mut Table) {
        t.after_awards = Stage::AFTER_AWARDS;
    }
}

impl Decisions for Track {
    const PHASES: &'static [Phase] = &[Phase::ScoringOrder];

    /// The active player left before ordering the scoring: the listed order.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        _deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        if t.phase != Phase::ScoringOrder {
            return None;
        }
        if player != t.current {
            return Some(None);
        }
        t.listed_scoring_order();
        Some(Some(Stage::Awards))
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        if t.phase == Phase::ScoringOrder {
            out.extend(t.scoring_order().iter().map(|c| Action::ScoreNext {
                x: c.pos.x,
                y: c.pos.y,
                spot: c.spot.clone(),
            }));
        }
    }

    fn apply(
        &self,
        t: &mut Table,
        _player: u8,
        action: &Action,
        _sink: &mut impl EffectSink,
    ) -> Option<Result<Decided, PlayError>> {
        match (t.phase, action) {
            (Phase::ScoringOrder, Action::ScoreNext { x, y, spot }) => {
                Some(t.score_next(Pos::new(*x, *y), spot))
            }
            _ => None,
        }
    }
}

impl Table {
    /// The feature `spot` names at `pos` is scored next; once the order is complete, the
    /// awards follow. Recorded by the scoring order's own name of the feature.
    fn score_next(&mut self, pos: Pos, spot: &str) -> Result<Decided, PlayError> {
        let seg = self
            .seg_at(pos, spot)
            .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
        let root = self.board.find(seg);
        let k = self
            .scoring_order()
            .iter()
            .position(|c| {
                self.seg_at(c.pos, &c.spot)
                    .is_some_and(|s| self.board.find(s) == root || s == seg)
            })
            .ok_or(PlayError::NotInScoringOrder)?;
        let (c, complete) = self
            .choose_next_scored(k)
            .ok_or(PlayError::NotInScoringOrder)?;
        if complete {
            self.order_awards();
        }
        let done = Done::As(Action::ScoreNext {
            x: c.pos.x,
            y: c.pos.y,
            spot: c.spot,
        });
        Ok((done, complete.then_some(Stage::Awards)))
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::game::Game;
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
            rules: Default::default(),
        })
        .expect("set-up");
        g
    }

    pub(crate) fn set(g: &mut Game, p: u8, meeple: i32, messenger: i32) {
        if let Some(t) = g.score_track.as_deref_mut() {
            t.totals[p as usize] = [meeple, messenger];
        }
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

    /// Queues the awards.
    pub(crate) fn queue(g: &mut Game, awards: &[Award]) {
        if let Some(t) = g.score_track.as_deref_mut() {
            t.awards.extend_from_slice(awards);
        }
    }

    /// Queues the awards and works them off with the meeple.
    pub(crate) fn score(g: &mut Game, awards: &[Award]) -> Vec<Effect> {
        let mut fx = Vec::new();
        queue(g, awards);
        assert!(!g.process_awards(&mut fx), "no decision without Messages");
        fx
    }
}
