//! The Messages: a second score figure per player; the active player landing on an empty
//! dark space earns a message, drawn after the wagon moves and carried out or taken as 2
//! points.

use super::prelude::*;

pub use crate::action::ScoreFigure;

/// Message tiles (The Messages), by number.
pub const MESSAGES: [u8; 8] = [1, 2, 3, 4, 5, 6, 7, 8];

/// Points instead of a message's action.
pub const MESSAGE_POINTS: i32 = 2;

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

/// The state of The Messages, held by a game with this expansion only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageState {
    /// The face-down stack (top first).
    stack: Vec<u8>,
    /// The message drawn and waiting for the active player.
    drawn: Option<u8>,
    /// Earned and not yet drawn.
    earned: u8,
    /// This scoring round already earned its message.
    round_earned: bool,
    /// Extra turn parts earned (message 4).
    extra_tiles: u8,
    /// Messages drawn so far (saturating). Until every message has been drawn once, the
    /// top `MESSAGES.len() - draws` of the stack are the ones nobody has seen; below them
    /// lie the messages put back, in an order everybody knows.
    draws: u8,
}

impl MessageState {
    /// The messages of a new game, the stack shuffled by the game's random numbers.
    pub(crate) fn new(rng: &mut crate::rng::Rng) -> MessageState {
        let mut stack = MESSAGES.to_vec();
        rng.shuffle(&mut stack);
        MessageState {
            stack,
            drawn: None,
            earned: 0,
            round_earned: false,
            extra_tiles: 0,
            draws: 0,
        }
    }

    /// The messages nobody has seen yet: the top of the stack.
    fn unread(&mut self) -> &mut [u8] {
        let n = MESSAGES
            .len()
            .saturating_sub(self.draws as usize)
            .min(self.stack.len());
        &mut self.stack[..n]
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.stack.capacity()
    }
}

impl Table {
    /// The message tile drawn and waiting for the active player's choice.
    pub fn message_drawn(&self) -> Option<u8> {
        self.messages.as_deref().and_then(|m| m.drawn)
    }

    /// How far the message stack has been read: messages drawn so far and the stack's
    /// size (a message drawn leaves it, one put back joins it at the bottom).
    pub(crate) fn message_mark(&self) -> (u8, usize) {
        self.messages
            .as_deref()
            .map_or((0, 0), |m| (m.draws, m.stack.len()))
    }

    /// The face-down message stack, top first (hidden from the players).
    pub(crate) fn message_stack(&self) -> &[u8] {
        self.messages.as_deref().map_or(&[], |m| &m.stack)
    }

    /// Puts the messages nobody has seen yet in `order`'s order (it rearranges the slice
    /// it is given); the messages put back stay where everybody knows them to be. The
    /// seat views of `crate::game` hide and re-sample the stack with it.
    pub(crate) fn reorder_unread_messages(&mut self, order: impl FnOnce(&mut [u8])) {
        if let Some(st) = self.messages.as_deref_mut() {
            order(st.unread());
        }
    }

    /// Messages earned and not drawn yet.
    #[cfg(test)]
    pub(crate) fn messages_earned(&self) -> u8 {
        self.messages.as_deref().map_or(0, |m| m.earned)
    }

    /// A new scoring round: it may earn a message again.
    pub(crate) fn new_scoring_round(&mut self) {
        if let Some(m) = self.messages.as_deref_mut() {
            m.round_earned = false;
        }
    }

    /// The active player's score figure landed on an empty dark space: the scoring
    /// round's message is earned (once a round).
    pub(crate) fn earn_message(&mut self, player: u8, sink: &mut impl EffectSink) {
        let Some(m) = self.messages.as_deref_mut() else {
            return;
        };
        if m.round_earned {
            return;
        }
        m.round_earned = true;
        m.earned += 1;
        if sink.enabled() {
            sink.push(Effect::MessageEarned { player });
        }
    }

    /// Message 4: whether an extra turn part is due (and taken now).
    pub(crate) fn take_extra_tile(&mut self) -> bool {
        match self.messages.as_deref_mut() {
            Some(m) if m.extra_tiles > 0 => {
                m.extra_tiles -= 1;
                true
            }
            _ => false,
        }
    }

    /// The turn passes on: extra turn parts not taken are lost.
    pub(crate) fn drop_extra_tiles(&mut self) {
        if let Some(m) = self.messages.as_deref_mut() {
            m.extra_tiles = 0;
        }
    }

    /// The active player left with a message drawn: it goes back under the stack.
    pub(crate) fn put_message_back(&mut self) {
        if let Some(st) = self.messages.as_deref_mut() {
            if let Some(m) = st.drawn.take() {
                st.stack.push(m);
            }
        }
    }

    /// Stage *messages*, after the wagon moves: draws the next earned message; true when
    /// its decision is pending.
    pub(crate) fn draw_message(&mut self, sink: &mut impl EffectSink) -> bool {
        let active = self.players[self.current as usize].active;
        let Some(st) = self.messages.as_deref_mut() else {
            return false;
        };
        if !active {
            st.earned = 0;
        }
        if st.earned > 0 && !st.stack.is_empty() {
            st.earned -= 1;
            st.draws = st.draws.saturating_add(1);
            let m = st.stack.remove(0);
            st.drawn = Some(m);
            self.phase = Phase::ResolveMessage;
            if sink.enabled() {
                sink.push(Effect::MessageDrawn {
                    player: self.current,
                    message: m,
                });
            }
            return true;
        }
        st.earned = 0;
        false
    }

    /// The options of the drawn message: its action (with the choices it needs) or 2 points.
    pub fn message_options(&self) -> Vec<MessageChoice> {
        let mut v = Vec::new();
        let Some(m) = self.message_drawn() else {
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

    pub(crate) fn seg_place(&self, seg: u16) -> (Pos, String) {
        let pt = self.board.tiles()[self.board.seg_tile(seg)];
        (pt.pos, self.spot_name_of(seg))
    }

    /// Messages 5–7: pennants in cities with your knight, your knights, your farmers.
    pub(crate) fn message_count(&self, m: u8, me: u8) -> i32 {
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

    /// Resolves the drawn message with `choice` (`None`: take the 2 points).
    pub(crate) fn resolve_message(
        &mut self,
        choice: Option<&MessageChoice>,
        sink: &mut impl EffectSink,
    ) -> Result<Stage, PlayError> {
        let options = self.message_options();
        if let Some(c) = choice {
            if !options.contains(c) {
                return Err(PlayError::MessageNotAllowed);
            }
        }
        let st = self
            .messages
            .as_deref_mut()
            .ok_or(PlayError::MessageNotAllowed)?;
        let m = st.drawn.take().ok_or(PlayError::MessageNotAllowed)?;
        st.stack.push(m);
        st.round_earned = false;
        self.after_awards = Stage::Messages;
        let me = self.current;
        match choice {
            None => self.grant(me, MESSAGE_POINTS, 2000, sink),
            Some(MessageChoice::Feature { points, .. }) | Some(MessageChoice::Points(points)) => {
                self.grant(me, *points, 2000, sink)
            }
            Some(MessageChoice::ExtraTile) => {
                if let Some(st) = self.messages.as_deref_mut() {
                    st.extra_tiles += 1;
                }
            }
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
        Ok(Stage::Awards)
    }
}

/// The Messages' decisions: which score figure moves, and the drawn message carried out
/// or taken as 2 points.
pub(crate) struct Messages;

impl Hooks for Messages {
    const HIDDEN: bool = true;

    /// The message stack, top first.
    fn hidden<'t>(&self, t: &'t Table) -> &'t [u8] {
        t.message_stack()
    }

    /// A message put back under the stack is known to everybody; one taken from the top
    /// is not, so the stack was read unless the old stack is still its beginning.
    fn hidden_read(&self, before: &[u8], after: &[u8]) -> bool {
        !after.starts_with(before)
    }

    /// Messages drawn so far and the stack's size.
    #[inline]
    fn hidden_mark(&self, t: &Table) -> u64 {
        let (draws, len) = t.message_mark();
        (draws as u64) << 56 | len as u64
    }

    /// The messages nobody has seen yet.
    fn reorder_unseen(&self, t: &mut Table, order: &mut impl FnMut(&mut [u8])) {
        t.reorder_unread_messages(order);
    }

    fn heap_bytes(&self, t: &Table) -> usize {
        t.messages.as_deref().map_or(0, |m| m.heap_bytes())
    }

    /// The message stack, shuffled (the game's first random numbers after the pile's).
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::Messages) {
            t.messages = Some(Box::new(MessageState::new(&mut t.rng)));
        }
    }

    /// The scoring is one scoring round.
    fn scoring_begins(&self, t: &mut Table) {
        t.new_scoring_round();
    }

    /// Message 4: an extra turn part, when one is due.
    fn another_part(&self, t: &mut Table) -> bool {
        t.take_extra_tile()
    }

    /// Extra turn parts not taken are lost.
    fn turn_over(&self, t: &mut Table) {
        t.drop_extra_tiles();
    }
}

impl Decisions for Messages {
    const PHASES: &'static [Phase] = &[Phase::ChooseScoreFigure, Phase::ResolveMessage];

    /// The player choosing the score figure left: the next award. The active player left
    /// before carrying out the message: it goes back, and the next message is drawn.
    fn player_left(
        &self,
        t: &mut Table,
        player: u8,
        deciding: bool,
        _sink: &mut impl EffectSink,
    ) -> Option<Option<Stage>> {
        let current = player == t.current;
        Some(match t.phase {
            Phase::ChooseScoreFigure if deciding => Some(Stage::Awards),
            Phase::ResolveMessage if current => {
                t.put_message_back();
                Some(Stage::Messages)
            }
            Phase::ChooseScoreFigure | Phase::ResolveMessage => None,
            _ => return None,
        })
    }

    fn options(&self, t: &Table, out: &mut Vec<Action>) {
        match t.phase {
            Phase::ChooseScoreFigure => out.extend([
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Meeple,
                },
                Action::ChooseScoreFigure {
                    figure: ScoreFigure::Messenger,
                },
            ]),
            Phase::ResolveMessage => {
                out.extend(t.message_options().into_iter().map(|o| match o {
                    MessageChoice::Feature { pos, spot, .. } => Action::MessageFeature {
                        x: pos.x,
                        y: pos.y,
                        spot,
                    },
                    MessageChoice::Follower { figure, pos, spot } => Action::MessageFollower {
                        figure,
                        x: pos.x,
                        y: pos.y,
                        spot,
                    },
                    MessageChoice::ExtraTile | MessageChoice::Points(_) => Action::MessageAction,
                }));
                out.push(Action::MessageTwoPoints);
            }
            _ => {}
        }
    }

    fn decider(&self, t: &Table) -> Option<u8> {
        match t.phase {
            Phase::ChooseScoreFigure => t.head_award().map(|a| a.player),
            _ => None,
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
            (Phase::ChooseScoreFigure, Action::ChooseScoreFigure { figure }) => {
                let next = t.choose_score_figure(*figure as u8, sink);
                Ok((Done::AsPosted, next))
            }
            (
                Phase::ResolveMessage,
                Action::MessageFeature { .. }
                | Action::MessageFollower { .. }
                | Action::MessageTwoPoints,
            ) => t.message_choice(action, sink),
            (Phase::ResolveMessage, Action::MessageAction) => {
                let plain = t
                    .message_options()
                    .into_iter()
                    .find(|o| matches!(o, MessageChoice::ExtraTile | MessageChoice::Points(_)));
                match plain {
                    Some(plain) => t
                        .resolve_message(Some(&plain), sink)
                        .map(|next| (Done::AsPosted, Some(next))),
                    None => Err(PlayError::MessageNotAllowed),
                }
            }
            _ => return None,
        })
    }
}

impl Table {
    /// The drawn message carried out on the feature or follower `action` names, or taken
    /// as 2 points; recorded as the option picked, in the engine's own names.
    fn message_choice(
        &mut self,
        action: &Action,
        sink: &mut impl EffectSink,
    ) -> Result<Decided, PlayError> {
        let choice = match action {
            Action::MessageFeature { x, y, spot } => Some((None, Pos::new(*x, *y), spot.as_str())),
            Action::MessageFollower { figure, x, y, spot } => {
                Some((Some(*figure), Pos::new(*x, *y), spot.as_str()))
            }
            _ => None,
        };
        let options = self.message_options();
        let picked = match choice {
            None => None,
            Some((figure, pos, spot)) => {
                let seg = self
                    .seg_at(pos, spot)
                    .ok_or_else(|| PlayError::UnknownSpot(spot.to_string()))?;
                Some(
                    options
                        .iter()
                        .find(|o| match (o, figure) {
                            (
                                MessageChoice::Feature {
                                    pos: p, spot: s, ..
                                },
                                None,
                            ) => self
                                .seg_at(*p, s)
                                .is_some_and(|x| self.board.find(x) == self.board.find(seg)),
                            (
                                MessageChoice::Follower {
                                    figure: k,
                                    pos: p,
                                    spot: s,
                                },
                                Some(f),
                            ) => *k == f && self.seg_at(*p, s) == Some(seg),
                            _ => false,
                        })
                        .cloned()
                        .ok_or(PlayError::MessageNotAllowed)?,
                )
            }
        };
        let next = self.resolve_message(picked.as_ref(), sink)?;
        let done = match picked {
            None => Done::As(Action::MessageTwoPoints),
            Some(MessageChoice::Feature { pos, spot, .. }) => Done::As(Action::MessageFeature {
                x: pos.x,
                y: pos.y,
                spot,
            }),
            Some(MessageChoice::Follower { figure, pos, spot }) => {
                Done::As(Action::MessageFollower {
                    figure,
                    x: pos.x,
                    y: pos.y,
                    spot,
                })
            }
            Some(_) => Done::As(Action::MessageAction),
        };
        Ok((done, Some(next)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expansions::robbers::testing::put_robber;
    use crate::expansions::score_track::testing::*;
    use crate::game::Game;
    use crate::game::GameConfig;

    fn st(g: &mut Game) -> &mut MessageState {
        g.messages.as_deref_mut().expect("messages in play")
    }

    #[test]
    fn only_the_messages_nobody_has_seen_are_reordered() {
        let mut g = game(vec![Expansion::Messages]);
        st(&mut g).stack = vec![4, 5, 6, 7, 8, 1, 2, 3];
        st(&mut g).draws = 3;
        g.reorder_unread_messages(|unread| unread.reverse());
        assert_eq!(g.message_stack(), &[8, 7, 6, 5, 4, 1, 2, 3]);
        // every message drawn once: the whole order is known
        st(&mut g).draws = 9;
        g.reorder_unread_messages(|unread| unread.reverse());
        assert_eq!(g.message_stack(), &[8, 7, 6, 5, 4, 1, 2, 3]);
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
        assert_eq!(g.messages_earned(), 0);
        // Red 22 -> 32: not dark
        g.move_figure(award(RED, 10, 0), 0, &mut fx);
        assert_eq!(g.messages_earned(), 0);
        // Red's messenger 0 -> 20: Blue stands there
        g.move_figure(award(RED, 20, 0), 1, &mut fx);
        assert_eq!(g.messages_earned(), 0);
        // Red 32 -> 35: dark and empty: a message
        g.move_figure(award(RED, 3, 0), 0, &mut fx);
        assert_eq!(g.messages_earned(), 1);
        // the same round earns no second one
        g.move_figure(award(RED, 5, 0), 0, &mut fx);
        assert_eq!(g.messages_earned(), 1);
        // a new round may
        g.new_scoring_round();
        g.move_figure(award(RED, 5, 0), 0, &mut fx);
        assert_eq!(g.messages_earned(), 2);
    }

    #[test]
    fn ms5_score_figures_are_summed_before_final_scoring() {
        let mut g = game(vec![Expansion::Messages, Expansion::Robbers]);
        set(&mut g, RED, 47, 23);
        set(&mut g, BLUE, 3, 10);
        // Green's robber beside Blue's messenger only: it goes home when the figures merge
        put_robber(&mut g, GREEN, Some(10));
        put_robber(&mut g, BLUE, Some(20));
        g.settle_track(&mut Vec::new());
        assert_eq!(g.track(RED), [70, 0]);
        assert_eq!(g.players[RED as usize].score, 70);
        assert_eq!(g.robber(GREEN), None);
        assert_eq!(g.robber(BLUE), Some(20), "Red's merged figure is on 20");
    }

    #[test]
    fn with_messages_every_award_asks_for_a_figure() {
        let mut g = game(vec![Expansion::Messages]);
        queue(&mut g, &[award(BLUE, 4, 0)]);
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
            rules: Default::default(),
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
                tile: None,
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
        st(&mut g).drawn = Some(m);
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
        let next = g
            .resolve_message(Some(&options[0]), &mut fx)
            .expect("resolves");
        g.run(next, &mut fx);
        // the award asks which figure moves
        assert_eq!(g.phase, Phase::ChooseScoreFigure);
        if let Some(next) = g.choose_score_figure(1, &mut fx) {
            g.run(next, &mut fx);
        }
        assert_eq!(g.players[RED as usize].score, 1);
        assert_eq!(g.track(RED), [0, 1]);
        assert_eq!(
            g.players[RED as usize].supply[FigureKind::Follower as usize],
            7
        );
        assert_eq!(
            g.messages.as_deref().and_then(|m| m.stack.last()),
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
            rules: Default::default(),
        })
        .expect("set-up");
        for &(x, y, deg, spot) in moves {
            let p = g.decider();
            let rotation = Rotation::from_degrees(deg).expect("rotation");
            g.play(
                p,
                &Action::PlaceTile {
                    x,
                    y,
                    rotation,
                    tile: None,
                },
            )
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
            assert!(g.head_award().is_none());
        }
        st(&mut g).drawn = Some(m);
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
        let next = g
            .resolve_message(Some(&options[0]), &mut fx)
            .expect("resolves");
        g.run(next, &mut fx);
        if let Some(next) = g.choose_score_figure(0, &mut fx) {
            g.run(next, &mut fx);
        }
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
        st(&mut g).drawn = None;
        set(&mut g, RED, 15, 3);
        if blue_on_five {
            set(&mut g, BLUE, 5, 0);
        }
        st(&mut g).stack = vec![2, 6, 1, 3, 4, 5, 7, 8];
        st(&mut g).earned = 1;
        let mut fx = Vec::new();
        g.after_awards = Stage::Messages;
        g.run(Stage::Messages, &mut fx);
        assert_eq!(g.message_drawn(), Some(2));
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
        let next = g.resolve_message(Some(&options[0]), &mut fx).expect("Y");
        g.run(next, &mut fx);
        // Red puts the 2 points on the messenger: 3 -> 5
        if let Some(next) = g.choose_score_figure(1, &mut fx) {
            g.run(next, &mut fx);
        }
        g
    }

    #[test]
    fn ms1_a_message_chain() {
        let mut g = ms1(false);
        // 5 is dark and empty: the second message is drawn
        assert_eq!(g.message_drawn(), Some(6));
        assert_eq!(g.message_options(), vec![MessageChoice::Points(4)]);
        let mut fx = Vec::new();
        let next = g
            .resolve_message(Some(&MessageChoice::Points(4)), &mut fx)
            .expect("2 per knight");
        g.run(next, &mut fx);
        if let Some(next) = g.choose_score_figure(0, &mut fx) {
            g.run(next, &mut fx);
        }
        assert_eq!(g.track(RED), [19, 5]);
        assert_eq!(g.players[RED as usize].score, 24);
        assert_eq!(g.message_drawn(), None, "19 is not dark: the chain ends");
    }

    #[test]
    fn ms1_no_second_message_beside_another_players_figure() {
        let g = ms1(true);
        assert_eq!(g.track(RED), [15, 5]);
        assert_eq!(g.message_drawn(), None);
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
            rules: Default::default(),
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
            tile: None,
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
        st(&mut g).stack = vec![3, 1, 2, 4, 5, 6, 7, 8];
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
}
