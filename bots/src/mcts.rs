//! The `mcts` level: information-set Monte Carlo search over sampled hidden futures.
//!
//! Every playout starts from a game sampled from the seat's view
//! (`SeatView::determinize`): the tiles left, the die and the unseen messages drawn anew
//! from the bot's own random numbers, the visible past kept; the real pile is never read.
//! A playout goes on for a round or so of decisions (in the tree, then quick ones: tiles
//! and figures by the greedy rule with a small evaluation budget, the other decisions at
//! random) and ends in the static evaluation (`crate::eval`), turned into a reward in
//! `[0, 1]` for each player (a logistic of their margin).
//!
//! At the root, a decision with many options (tile placements) keeps only the best ones
//! by the greedy evaluation, so that the budget goes to the plausible moves. Every sampled
//! future is played once through every root candidate with the same random numbers
//! (common random numbers), so that candidates are compared on the same tiles and dice;
//! the candidate with the best mean reward wins. Below the root, two searches:
//!
//! - [`Search::Tree`] (the default): information-set MCTS (Cowling, Powley and Whitehouse,
//!   2012). The tree's nodes are actions shared by every sample (a node stands for an
//!   action of one player after its parent's, whatever the sample); at each decision the
//!   sample's listed options are ranked (tiles and figures by the rollout's greedy rule,
//!   the others in a random order) and only the best few are candidates, more as the node
//!   is visited more (progressive widening, `widening` × √(visits + 1)). The best
//!   candidate without a node is added and the playout goes on with the rollout; when all
//!   have nodes, UCB1 with availability counts picks one for the player who decides,
//!   on that player's rewards. A node seen once follows the greedy rule, so the tree
//!   starts from the rollout policy and departs from it where samples agree (the bot's
//!   own figure after its tile, the decisions without hidden input, an opponent's reply
//!   to a tile drawn in several samples).
//! - [`Search::Paired`]: the rollout alone below the root (flat Monte Carlo with common
//!   random numbers).
//!
//! The tree and the rollout end at the same horizon (`rollout_rounds` rounds of tiles).

use std::time::{Duration, Instant};

use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, Game, NoEffects, Phase, TileTypeId};

use crate::eval::{
    calibrated_worth_of, fitted_worth, margin, mean_over_others, places_worth_of, worth_of, Margin,
};
use crate::greedy::{option_values, option_values_within, EVALUATIONS};
use crate::{own_options, Bot, Budget, Clock, SeatView};

/// Root options kept by the greedy evaluation.
const ROOT_OPTIONS: usize = 5;
/// Exploration constant of UCB1 (rewards in `[0, 1]`).
const EXPLORATION: f64 = 0.7;
/// Rounds of tiles the tree and the rollout go through before the evaluation.
const ROLLOUT_ROUNDS: usize = 1;
/// Evaluations a rollout decision may spend (enough for the greedy rule's full look at a
/// base-game tile; with expansions' many options, each option is judged with its pass).
const ROLLOUT_EVALUATIONS: usize = 400;
/// Progressive widening below the root (see `Settings::widening`).
const WIDENING: f64 = 0.5;
/// Points of margin that make a reward of about 0.73 (the logistic's scale).
const REWARD_SCALE: f64 = 10.0;

/// How the budget is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// The rollout alone below the root candidates (flat Monte Carlo).
    Paired,
    /// Information-set MCTS: a tree shared by the samples below the root candidates.
    Tree,
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub budget: Budget,
    pub root_options: usize,
    pub exploration: f64,
    pub rollout_rounds: usize,
    /// Candidates at a node below the root: `widening` × √(visits + 1), rounded up.
    pub widening: f64,
    /// Evaluations a decision judged by the tree's ranking and the rollout may spend (the
    /// greedy rule's look ahead, shared by the options).
    pub rollout_evaluations: usize,
    /// Which decisions the tree's ranking and the rollout judge by the greedy rule; the
    /// others are taken in a random order.
    pub judged: Judged,
    pub search: Search,
    /// The evaluation at the end of a playout.
    pub eval: Eval,
    /// How a player's reward follows from the evaluation: the reward of the player the
    /// search is for (at the root and in its own nodes of the tree)...
    pub reward: Reward,
    /// ...and the reward the other players' nodes of the tree choose by (their model of
    /// what the others play for).
    pub others_reward: Reward,
    /// The rollout's choice among a judged decision's options: 0 takes the best; above 0,
    /// an option is drawn with a weight of e^((value - best) / temperature), the values
    /// being the greedy rule's margins in points.
    pub rollout_temperature: f64,
    /// The points of margin that make a reward of about 0.73 (the logistic's scale) at a
    /// playout's end before the game's...
    pub reward_scale: f64,
    /// ...and at the game's end, where the margins are final.
    pub final_reward_scale: f64,
    /// The margin the rollout's greedy rule maximises in the decisions of the player the
    /// search is for...
    pub rollout_margin: Margin,
    /// ...and in the others' decisions.
    pub others_rollout_margin: Margin,
    /// Whether a node of the tree below the root stands for an action with the tile drawn
    /// when it was chosen (a chance node's outcome: an opponent's reply to one tile is not
    /// shared with its reply to another), or for the action alone, whatever the tile.
    pub tile_keyed: bool,
}

/// The decisions of a playout judged by the greedy rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judged {
    /// Tile and figure placements (`mcts`).
    TilesAndFigures,
    /// Every decision with at most the rollout's evaluations of options: with the
    /// expansions, also the abbey, the mage and the witch, the robbers, the messages, the
    /// ferries, the flying figures' landings, the crop circles, the ingots, the wagons
    /// and the orders of scoring.
    Every,
}

impl Judged {
    /// Whether a decision of `phase` with `options` listed options is judged.
    fn judges(self, phase: Phase, options: usize, evaluations: usize) -> bool {
        let tile_or_figure = matches!(phase, Phase::PlaceTile | Phase::PlaceFigure);
        options > 1 && (tile_or_figure || (self == Judged::Every && options <= evaluations))
    }
}

/// How a player's reward (0 to 1) follows from every player's worth at a playout's end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reward {
    /// A logistic of the margin to the best other player (`mcts`).
    Best,
    /// The mean, over the other players, of a logistic of the margin to each: a smooth
    /// share of the others the player beats (one less it is the share of the others a
    /// player's rank is behind, so its expectation is what the mean rank counts). With two
    /// players, the same as `Best`.
    Pairwise,
    /// A logistic of the player's own gain in worth over the playout (from the sample
    /// before the root's candidate), whatever the others' worth: a model of a player who
    /// plays for their own points and not against anyone.
    Own,
}

impl Reward {
    /// Whether the reward needs every player's worth at the playout's start.
    fn counts_from_start(self) -> bool {
        self == Reward::Own
    }
}

/// `player`'s reward at a playout's end with every player's `worth`, the logistic's scale
/// being `scale` points of margin; `start` is every player's worth at the playout's start
/// (for `Reward::Own`; none counts as 0).
pub(crate) fn reward_for(
    worth: &[f64],
    start: &[f64],
    player: u8,
    kind: Reward,
    scale: f64,
) -> f64 {
    let reward = |m: f64| reward_at(m, scale);
    match kind {
        Reward::Best => reward(margin(worth, player)),
        Reward::Pairwise => mean_over_others(worth, player, reward),
        Reward::Own => reward(Margin::Own.of(worth, player) - Margin::Own.of(start, player)),
    }
}

/// The evaluation that ends a playout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eval {
    /// `eval::worth`: the greedy rule's hand-set evaluation.
    Hand,
    /// `eval::fitted_worth`: the final scores predicted by weights fitted on self-play.
    Fitted,
    /// `eval::calibrated_worth_of`: the hand-set evaluation with the odds of the open
    /// features fitted on self-play for the table size.
    Calibrated,
    /// `eval::places_worth_of`: each player's standing, whose differences give the odds
    /// of finishing ahead of each other, fitted on self-play with four players (the
    /// hand-set evaluation with other table sizes or expansions).
    Places,
}

impl Eval {
    /// Every player's worth in `game` by this evaluation.
    pub(crate) fn worth(self, game: Game) -> Vec<f64> {
        match self {
            Eval::Hand => worth_of(game),
            Eval::Fitted => fitted_worth(&game),
            Eval::Calibrated => calibrated_worth_of(game),
            Eval::Places => places_worth_of(game),
        }
    }
}

impl Settings {
    pub fn new(budget: Budget) -> Settings {
        Settings {
            budget,
            root_options: ROOT_OPTIONS,
            exploration: EXPLORATION,
            rollout_rounds: ROLLOUT_ROUNDS,
            widening: WIDENING,
            rollout_evaluations: ROLLOUT_EVALUATIONS,
            judged: Judged::TilesAndFigures,
            search: Search::Tree,
            eval: Eval::Hand,
            reward: Reward::Best,
            others_reward: Reward::Best,
            rollout_temperature: 0.0,
            reward_scale: REWARD_SCALE,
            final_reward_scale: REWARD_SCALE,
            rollout_margin: Margin::Best,
            others_rollout_margin: Margin::Best,
            tile_keyed: false,
        }
    }

    /// `player`'s reward at the end of a playout, for the player the search is for.
    pub(crate) fn reward_of(&self, end: &Ending, player: u8) -> f64 {
        self.reward_as(end, player, self.reward)
    }

    /// `player`'s reward at the end of a playout, of the kind `kind`.
    fn reward_as(&self, end: &Ending, player: u8, kind: Reward) -> f64 {
        let scale = if end.over {
            self.final_reward_scale
        } else {
            self.reward_scale
        };
        reward_for(&end.worth, &end.start, player, kind, scale)
    }

    /// Whether a playout's rewards need every player's worth at its start.
    fn counts_from_start(&self) -> bool {
        self.reward.counts_from_start() || self.others_reward.counts_from_start()
    }

    /// The reward a node of the tree takes for `player`, who chose its action: the search's
    /// own reward for `me`, the others' model of it for the other players.
    pub(crate) fn node_reward(&self, end: &Ending, player: u8, me: u8) -> f64 {
        let kind = if player == me {
            self.reward
        } else {
            self.others_reward
        };
        self.reward_as(end, player, kind)
    }
}

/// Information-set MCTS.
pub struct MctsBot {
    rng: Rng,
    settings: Settings,
    /// The time limit of the decision under way, if its budget has one.
    pub(crate) clock: Option<Clock>,
    /// The player the playout under way searches for (the root's player).
    me: Option<u8>,
}

/// A playout or a ranking stopped by the time limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutOfTime;

impl MctsBot {
    pub fn new(seed: u64, budget: Budget) -> MctsBot {
        MctsBot::with_settings(seed, Settings::new(budget))
    }

    pub fn with_settings(seed: u64, settings: Settings) -> MctsBot {
        MctsBot {
            rng: Rng::new(seed),
            settings,
            clock: None,
            me: None,
        }
    }
}

/// A node of the tree: an action and the statistics of the playouts through it.
pub(crate) struct Node {
    pub(crate) action: Option<Action>,
    /// The player who chose `action`.
    pub(crate) player: u8,
    /// The tile drawn when `action` was chosen, when the tree is keyed by it
    /// ([`Settings::tile_keyed`]).
    pub(crate) tile: Option<TileTypeId>,
    pub(crate) children: Vec<usize>,
    pub(crate) visits: u32,
    /// Playouts in which this node's action was one of the candidates.
    pub(crate) available: u32,
    /// The sum of the rewards of `player`.
    pub(crate) reward: f64,
}

impl Node {
    pub(crate) fn new(action: Option<Action>, player: u8) -> Node {
        Node {
            action,
            player,
            tile: None,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }
}

/// Every player's worth at a playout's end, and whether the game is over there; with a
/// reward that counts from the start ([`Reward::Own`]), every player's worth on the sample
/// before the root's candidate (empty otherwise).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Ending {
    pub(crate) worth: Vec<f64>,
    pub(crate) over: bool,
    pub(crate) start: Vec<f64>,
}

/// A player's reward for a margin: a logistic in `[0, 1]` of scale `scale` points
/// ([`REWARD_SCALE`] by default).
fn reward_at(margin: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-margin / scale.max(1e-9)).exp())
}

impl Bot for MctsBot {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn decide(&mut self, view: &SeatView) -> Option<Action> {
        self.clock = self.settings.budget.clock(Instant::now());
        let (game, mut options) = own_options(view)?;
        if options.len() == 1 {
            return options.pop();
        }
        let me = view.seat();
        // the candidates, in the listed order, and the greedy rule's pick among them (the
        // answer when the time limit leaves no complete sample; when it cuts the greedy
        // ranking itself, the best option judged)
        let fallback;
        if options.len() > self.settings.root_options {
            let (values, complete) = option_values_within(
                game,
                me,
                &options,
                EVALUATIONS,
                (Eval::Hand, Margin::Best),
                self.clock.as_ref(),
            );
            let mut order = best_first(&values, self.settings.root_options);
            let best = order[0];
            if !complete {
                return options.into_iter().nth(best);
            }
            order.sort_unstable();
            fallback = order.iter().position(|i| *i == best).unwrap_or(0);
            options = order.into_iter().map(|i| options[i].clone()).collect();
        } else {
            let (values, complete) = option_values_within(
                game,
                me,
                &options,
                options.len(),
                (Eval::Hand, Margin::Best),
                self.clock.as_ref(),
            );
            fallback = best_first(&values, 1).first().copied().unwrap_or(0);
            if !complete {
                return options.into_iter().nth(fallback);
            }
        }
        match self.search(view, &options) {
            None => options.into_iter().nth(fallback),
            Some(means) => {
                let best = best_mean(&means)?;
                options.into_iter().nth(best)
            }
        }
    }
}

/// The index of the best mean (ties: the first listed).
fn best_mean(means: &[f64]) -> Option<usize> {
    (0..means.len()).max_by(|a, b| means[*a].total_cmp(&means[*b]).then(b.cmp(a)))
}

/// A decision judged by the search, from its player's view: the value (the expected
/// reward, 0 to 1, a logistic function of the final margin; see [`margin_of`]) of the
/// option the search prefers and of the option played.
#[derive(Clone, Debug, PartialEq)]
pub struct Appraisal {
    pub best: Action,
    pub best_value: f64,
    pub played_value: f64,
}

/// The final margin (points ahead of the best opponent) that a search value stands for:
/// the inverse of the reward's logistic function.
pub fn margin_of(value: f64) -> f64 {
    let r = value.clamp(1e-6, 1.0 - 1e-6);
    -REWARD_SCALE * (1.0 / r - 1.0).ln()
}

impl MctsBot {
    /// Judges `played`, one of the listed options of the view's seat's pending decision:
    /// the search runs over the candidates a decision would have (the greedy rule's best
    /// few) and `played` beside them, on the same samples. `None` when nothing is pending
    /// for the seat, `played` is not listed, or no sample completed.
    pub fn appraise(&mut self, view: &SeatView, played: &Action) -> Option<Appraisal> {
        let (game, options) = own_options(view)?;
        let at = options.iter().position(|a| a == played)?;
        let me = view.seat();
        let mut keep: Vec<usize> = if options.len() > self.settings.root_options {
            let values = option_values(game, me, &options, EVALUATIONS);
            best_first(&values, self.settings.root_options)
        } else {
            (0..options.len()).collect()
        };
        if !keep.contains(&at) {
            keep.push(at);
        }
        keep.sort_unstable();
        let candidates: Vec<Action> = keep.iter().map(|i| options[*i].clone()).collect();
        self.clock = None;
        let means = self.search(view, &candidates)?;
        let best = best_mean(&means)?;
        let played_at = keep.iter().position(|i| *i == at)?;
        Some(Appraisal {
            best: candidates[best].clone(),
            best_value: means[best],
            played_value: means[played_at],
        })
    }
}

/// The indices of the `keep` best values, best first (ties: the first listed).
pub(crate) fn best_first(values: &[f64], keep: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|a, b| values[*b].total_cmp(&values[*a]).then(a.cmp(b)));
    order.truncate(keep);
    order
}

impl MctsBot {
    /// The search: every sampled future is played once through every root candidate, all
    /// with the same random numbers; below a candidate, the tree (with `Search::Tree`) or
    /// the rollout alone (with `Search::Paired`). The budget counts one playout per
    /// candidate and sample. The time limit (`self.clock`) is kept twice: the search does
    /// not start a playout that would overrun it (judged by the longest playout so far),
    /// and a playout stops at the first step that finds the time up; either way the
    /// sample under way is dropped. The answer is every candidate's mean reward, or `None` when
    /// no sample is complete (the caller then takes the greedy rule's pick).
    fn search(&mut self, view: &SeatView, options: &[Action]) -> Option<Vec<f64>> {
        let me = view.seat();
        let game = view.game();
        let rounds = self.settings.rollout_rounds * game.player_count() as usize;
        let stop = game.tiles_left().saturating_sub(rounds);
        let steps = 40 * rounds + 40;
        let mut tree = vec![Node::new(None, me)];
        tree[0].children = (0..options.len()).map(|i| i + 1).collect();
        tree.extend(options.iter().map(|a| Node::new(Some(a.clone()), me)));
        let clock = self.clock.clone();
        let over = |extra: Duration| clock.as_ref().is_some_and(|c| c.up_after(extra));
        let (mut done, mut samples) = (0u32, 0u32);
        // the longest playout so far (with its share of the sample's set-up)
        let mut longest = Duration::ZERO;
        while done < self.settings.budget.playouts.max(1) {
            if over(longest) {
                break;
            }
            let sample_started = Instant::now();
            let sample = view.determinize(&mut self.rng);
            let seed = self.rng.next_u64();
            // the root's rewards count once the sample has been through every candidate
            let mut rewards = vec![None; options.len()];
            let mut cut = false;
            for i in 0..options.len() {
                cut = over(longest);
                if cut {
                    break;
                }
                let playout_started = Instant::now();
                let w = match self.playout(&mut tree, &sample, i + 1, seed, (stop, steps)) {
                    Ok(Some(w)) => w,
                    Ok(None) => {
                        tree[i + 1].reward = f64::NEG_INFINITY;
                        continue;
                    }
                    Err(OutOfTime) => {
                        cut = true;
                        break;
                    }
                };
                rewards[i] = Some(self.settings.reward_of(&w, me));
                done += 1;
                let took = playout_started.elapsed();
                longest = longest.max(if i == 0 {
                    sample_started.elapsed()
                } else {
                    took
                });
            }
            if cut {
                break;
            }
            for (i, r) in rewards.into_iter().enumerate() {
                if let Some(r) = r {
                    tree[i + 1].visits += 1;
                    tree[i + 1].reward += r;
                }
            }
            samples += 1;
        }
        if samples == 0 {
            return None;
        }
        Some(
            (1..=options.len())
                .map(|i| tree[i].reward / f64::from(tree[i].visits.max(1)))
                .collect(),
        )
    }

    /// One playout on a copy of `sample`: the root candidate of node `candidate` (a child
    /// of the root, played by the root's player), then the tree below it (with
    /// `Search::Tree`) and the rollout down to `horizon` (tiles left to stop at, most
    /// steps), all with the random numbers of `seed`; the nodes below the candidate take
    /// their players' rewards. The answer is every player's worth at the end and whether
    /// the game is over there, `None` when the candidate cannot be played on this sample,
    /// or `OutOfTime` when the time was up on the way (the nodes on the path then take no
    /// reward).
    pub(crate) fn playout(
        &mut self,
        tree: &mut Vec<Node>,
        sample: &Game,
        candidate: usize,
        seed: u64,
        horizon: (usize, usize),
    ) -> Result<Option<Ending>, OutOfTime> {
        let Some(action) = tree[candidate].action.clone() else {
            return Ok(None);
        };
        let mut g = sample.clone();
        if g.play_into(tree[candidate].player, &action, &mut NoEffects)
            .is_err()
        {
            return Ok(None);
        }
        self.me = Some(tree[candidate].player);
        let keep = std::mem::replace(&mut self.rng, Rng::new(seed));
        let mut path = vec![candidate];
        let mut run = Ok(());
        if self.settings.search == Search::Tree {
            run = self.descend(tree, &mut g, &mut path, horizon.0);
        }
        if run.is_ok() {
            run = self.rollout(&mut g, horizon.0, horizon.1);
        }
        self.rng = keep;
        run?;
        let over = g.is_over();
        let worth = self.settings.eval.worth(g);
        let start = if self.settings.counts_from_start() {
            self.settings.eval.worth(sample.clone())
        } else {
            Vec::new()
        };
        let end = Ending { worth, over, start };
        let me = tree[candidate].player;
        for &n in &path[1..] {
            tree[n].visits += 1;
            tree[n].reward += self.settings.node_reward(&end, tree[n].player, me);
        }
        Ok(Some(end))
    }

    /// `OutOfTime` when the clock says the time is up.
    fn out_of_time(&self) -> Result<(), OutOfTime> {
        if self.clock.as_ref().is_some_and(Clock::up) {
            Err(OutOfTime)
        } else {
            Ok(())
        }
    }

    /// Selection and expansion below a root candidate, on one sample, down to `stop`
    /// tiles left: at each decision the listed options are ranked (tiles and figures by
    /// the rollout's greedy rule, the others in a random order), the best few are the
    /// candidates (more as the node is visited more: progressive widening), the best
    /// candidate without a node is added and ends the descent, or else UCB1 with
    /// availability counts picks among them for the player who decides. `OutOfTime`
    /// when a decision on the way finds the time up.
    fn descend(
        &mut self,
        tree: &mut Vec<Node>,
        game: &mut Game,
        path: &mut Vec<usize>,
        stop: usize,
    ) -> Result<(), OutOfTime> {
        let mut node = path[path.len() - 1];
        while let Some(p) = game.pending() {
            if game.tiles_left() < stop {
                return Ok(());
            }
            self.out_of_time()?;
            let options = game.legal_actions();
            if options.is_empty() {
                return Ok(());
            }
            let order = self.ranked(game, p.player, p.phase, &options)?;
            let width = (self.settings.widening * f64::from(tree[node].visits + 1).sqrt())
                .ceil()
                .max(1.0) as usize;
            let tile = p.tile.filter(|_| self.settings.tile_keyed);
            let mut listed = Vec::with_capacity(width);
            for &i in order.iter().take(width) {
                let a = &options[i];
                let found = tree[node].children.iter().copied().find(|c| {
                    let n = &tree[*c];
                    n.player == p.player && n.tile == tile && n.action.as_ref() == Some(a)
                });
                match found {
                    Some(c) => listed.push(c),
                    None => {
                        // expansion: the best candidate without a node, then the rollout
                        if game.play_into(p.player, a, &mut NoEffects).is_err() {
                            return Ok(());
                        }
                        tree.push(Node {
                            tile,
                            ..Node::new(Some(a.clone()), p.player)
                        });
                        let child = tree.len() - 1;
                        tree[node].children.push(child);
                        for c in listed.iter().copied().chain([child]) {
                            tree[c].available += 1;
                        }
                        path.push(child);
                        return Ok(());
                    }
                }
            }
            for c in &listed {
                tree[*c].available += 1;
            }
            let chosen = self.select(tree, &listed);
            let Some(action) = tree[chosen].action.clone() else {
                return Ok(());
            };
            if game.play_into(p.player, &action, &mut NoEffects).is_err() {
                return Ok(());
            }
            path.push(chosen);
            node = chosen;
        }
        Ok(())
    }

    /// UCB1 with availability counts among the candidates' nodes (all visited: a node is
    /// visited when it is added); ties go to the better ranked.
    fn select(&self, tree: &[Node], listed: &[usize]) -> usize {
        let c = self.settings.exploration;
        let mut best = (listed[0], f64::NEG_INFINITY);
        for &i in listed {
            let n = &tree[i];
            let visits = f64::from(n.visits.max(1));
            let ucb = n.reward / visits + c * (f64::from(n.available.max(1)).ln() / visits).sqrt();
            if ucb > best.1 {
                best = (i, ucb);
            }
        }
        best.0
    }

    /// The listed options' indices, best first: the decisions judged (see [`Judged`]) by
    /// the greedy rule with a small evaluation budget, the others in a random order.
    fn ranked(
        &mut self,
        game: &Game,
        player: u8,
        phase: Phase,
        options: &[Action],
    ) -> Result<Vec<usize>, OutOfTime> {
        if self.judges(phase, options.len()) {
            let values = self.rollout_values(game, player, options)?;
            return Ok(best_first(&values, values.len()));
        }
        let mut order: Vec<usize> = (0..options.len()).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, self.rng.below(i as u64 + 1) as usize);
        }
        Ok(order)
    }

    /// Whether the playout's decision of `phase` with `options` listed options is judged by
    /// the greedy rule (see [`Judged`]).
    fn judges(&self, phase: Phase, options: usize) -> bool {
        self.settings
            .judged
            .judges(phase, options, self.settings.rollout_evaluations)
    }

    /// The greedy rule's values of the options with the rollout's evaluation budget, or
    /// `OutOfTime` when the time is up before every option is judged.
    fn rollout_values(
        &self,
        game: &Game,
        player: u8,
        options: &[Action],
    ) -> Result<Vec<f64>, OutOfTime> {
        let (values, complete) = option_values_within(
            game,
            player,
            options,
            self.settings.rollout_evaluations,
            (Eval::Hand, self.rollout_margin(player)),
            self.clock.as_ref(),
        );
        if complete {
            Ok(values)
        } else {
            Err(OutOfTime)
        }
    }

    /// The margin the rollout's greedy rule maximises in `player`'s decisions.
    fn rollout_margin(&self, player: u8) -> Margin {
        if self.me == Some(player) {
            self.settings.rollout_margin
        } else {
            self.settings.others_rollout_margin
        }
    }

    /// The rollout's pick among options of `values`, `best` being the best one's index:
    /// `best` at temperature 0, else drawn by the weights of [`Settings::rollout_temperature`].
    fn drawn(&mut self, values: &[f64], best: usize) -> usize {
        let t = self.settings.rollout_temperature;
        let top = values.get(best).copied().unwrap_or(0.0);
        if t <= 0.0 || !top.is_finite() {
            return best;
        }
        let weights: Vec<f64> = values.iter().map(|v| ((v - top) / t).exp()).collect();
        let total: f64 = weights.iter().sum();
        // a uniform draw in [0, total) from 53 random bits
        let mut x = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
        for (i, w) in weights.iter().enumerate() {
            if x < *w {
                return i;
            }
            x -= w;
        }
        best
    }

    /// Quick decisions down to `stop` tiles left: the decisions judged (see [`Judged`]) by
    /// the greedy rule with a small evaluation budget, the others at random. `OutOfTime`
    /// when a decision on the way finds the time up.
    fn rollout(&mut self, game: &mut Game, stop: usize, limit: usize) -> Result<(), OutOfTime> {
        let mut steps = 0;
        while let Some(p) = game.pending() {
            if game.tiles_left() < stop || steps > limit {
                break;
            }
            self.out_of_time()?;
            steps += 1;
            let options = game.legal_actions();
            if options.is_empty() {
                break;
            }
            let pick = if self.judges(p.phase, options.len()) {
                let values = self.rollout_values(game, p.player, &options)?;
                let best = (0..options.len())
                    .max_by(|a, b| values[*a].total_cmp(&values[*b]).then(b.cmp(a)))
                    .unwrap_or(0);
                self.drawn(&values, best)
            } else {
                self.rng.below(options.len() as u64) as usize
            };
            if game
                .play_into(p.player, &options[pick], &mut NoEffects)
                .is_err()
            {
                break;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A base game after a few greedy turns, at a tile placement of seat 0 or 1.
    fn game_at(seed: u64, turns: usize) -> Game {
        crate::greedy::tests::base_game_at(seed, turns, 2)
    }

    fn settings(search: Search) -> Settings {
        Settings {
            search,
            ..Settings::new(Budget {
                playouts: 40,
                time: None,
            })
        }
    }

    #[test]
    fn the_search_repeats_itself_for_one_seed() {
        for (i, turns) in [3, 11, 20].into_iter().enumerate() {
            let game = game_at(40 + i as u64, turns);
            let p = game.pending().expect("pending");
            let view = game.seat_view(p.player);
            for search in [Search::Tree, Search::Paired] {
                let first = MctsBot::with_settings(9, settings(search)).decide(&view);
                let again = MctsBot::with_settings(9, settings(search)).decide(&view);
                assert!(first.is_some());
                assert_eq!(first, again, "{search:?} after {turns} turns");
                let action = first.expect("a decision");
                assert!(game.legal_actions().contains(&action), "{action:?}");
            }
        }
    }

    #[test]
    fn with_no_time_at_all_the_answer_is_the_first_listed_option() {
        // the time is up before the greedy rule has judged any option
        for (i, turns) in [2, 9].into_iter().enumerate() {
            let game = game_at(70 + i as u64, turns);
            let p = game.pending().expect("pending");
            let view = game.seat_view(p.player);
            let budget = Budget {
                playouts: 1000,
                time: Some(Duration::ZERO),
            };
            let action = MctsBot::new(1, budget).decide(&view).expect("a decision");
            let (_, options) = own_options(&view).expect("options");
            assert!(options.len() > 1);
            assert_eq!(action, options[0]);
        }
    }

    #[test]
    fn the_decisions_judged_by_the_greedy_rule() {
        let tiles = Judged::TilesAndFigures;
        let every = Judged::Every;
        for judged in [tiles, every] {
            assert!(judged.judges(Phase::PlaceTile, 300, 100));
            assert!(judged.judges(Phase::PlaceFigure, 2, 100));
            // one option: nothing to judge
            assert!(!judged.judges(Phase::PlaceTile, 1, 100));
            assert!(!judged.judges(Phase::MoveMagic, 1, 100));
        }
        // mcts: the other decisions at random
        for phase in [
            Phase::AbbeyOrDraw,
            Phase::MoveMagic,
            Phase::PlaceRobber,
            Phase::ResolveMessage,
        ] {
            assert!(!tiles.judges(phase, 3, 100));
            assert!(every.judges(phase, 3, 100));
        }
        // more options than the evaluations: at random
        assert!(every.judges(Phase::MoveMagic, 100, 100));
        assert!(!every.judges(Phase::MoveMagic, 101, 100));
        assert_eq!(Settings::new(Budget::default()).judged, tiles);
    }

    #[test]
    fn the_reward_takes_the_final_scale_at_the_games_end_only() {
        let mut s = settings(Search::Tree);
        s.reward = Reward::Pairwise;
        s.final_reward_scale = 2.0;
        let worth = vec![31.0, 30.0, 20.0, 40.0];
        let open = Ending {
            worth: worth.clone(),
            over: false,
            start: Vec::new(),
        };
        let over = Ending {
            worth,
            over: true,
            start: Vec::new(),
        };
        // before the end, the default scale: the same reward as before the setting
        assert_eq!(
            s.reward_of(&open, 0),
            reward_for(&open.worth, &[], 0, Reward::Pairwise, REWARD_SCALE)
        );
        // at the end, a point's lead counts for more and a large one for about a pass
        assert_eq!(
            s.reward_of(&over, 0),
            reward_for(&over.worth, &[], 0, Reward::Pairwise, 2.0)
        );
        let lead = |r: f64| reward_for(&[1.0, 0.0], &[], 0, Reward::Best, r);
        assert!(lead(2.0) > lead(REWARD_SCALE));
        assert!(reward_for(&[30.0, 0.0], &[], 0, Reward::Best, 2.0) > 0.999);
        // ranks are kept whatever the scale
        for scale in [0.5, 2.0, 10.0, 40.0] {
            let r: Vec<f64> = (0..4)
                .map(|p| reward_for(&over.worth, &[], p, Reward::Pairwise, scale))
                .collect();
            assert!(r[3] > r[0] && r[0] > r[1] && r[1] > r[2], "{scale}: {r:?}");
        }
    }

    #[test]
    fn the_pairwise_reward_counts_every_player_passed() {
        // two players: the same as the margin to the best other
        for w in [[40.0, 31.0], [12.0, 30.5], [7.0, 7.0]] {
            for p in [0, 1] {
                assert_eq!(
                    reward_for(&w, &[], p, Reward::Pairwise, REWARD_SCALE),
                    reward_for(&w, &[], p, Reward::Best, REWARD_SCALE)
                );
            }
        }
        // four: second place, close behind the leader and far ahead of the last two,
        // gets more than half, where the margin to the best other gives less
        let w = [50.0, 48.0, 20.0, 18.0];
        assert!(reward_for(&w, &[], 1, Reward::Pairwise, REWARD_SCALE) > 0.5);
        assert!(reward_for(&w, &[], 1, Reward::Best, REWARD_SCALE) < 0.5);
        assert!(
            reward_for(&w, &[], 0, Reward::Pairwise, REWARD_SCALE)
                > reward_for(&w, &[], 1, Reward::Pairwise, REWARD_SCALE)
        );
        assert!(
            reward_for(&w, &[], 2, Reward::Pairwise, REWARD_SCALE)
                > reward_for(&w, &[], 3, Reward::Pairwise, REWARD_SCALE)
        );
    }

    #[test]
    fn the_own_reward_counts_the_players_gain_and_not_the_others() {
        let start = [30.0, 30.0, 20.0, 10.0];
        let own = |worth: &[f64], p: u8| reward_for(worth, &start, p, Reward::Own, REWARD_SCALE);
        // no gain: even; ten points gained: the logistic's 0.73, whoever else gained
        assert_eq!(own(&start, 1), 0.5);
        let gained = [30.0, 40.0, 20.0, 10.0];
        assert!((own(&gained, 1) - 0.731).abs() < 1e-3);
        let all_gained = [45.0, 40.0, 35.0, 25.0];
        assert_eq!(own(&all_gained, 1), own(&gained, 1));
        // a loss is below even, however far behind the others the player stays
        assert!(own(&[30.0, 25.0, 20.0, 10.0], 1) < 0.5);
        // with the margins, the others' gains count against the player
        let pairwise = |worth: &[f64]| reward_for(worth, &start, 1, Reward::Pairwise, REWARD_SCALE);
        assert!(pairwise(&all_gained) < pairwise(&gained));
        // the playout computes the start only for a reward that needs it
        let mut s = settings(Search::Tree);
        assert!(!s.counts_from_start());
        s.others_reward = Reward::Own;
        assert!(s.counts_from_start());
    }

    #[test]
    fn the_trees_nodes_take_the_own_reward_for_the_searcher_and_the_others_for_the_rest() {
        let mut s = settings(Search::Tree);
        s.reward = Reward::Pairwise;
        s.others_reward = Reward::Best;
        let end = Ending {
            worth: vec![50.0, 48.0, 20.0, 18.0],
            over: false,
            start: Vec::new(),
        };
        for me in 0..4u8 {
            for player in 0..4u8 {
                let kind = if player == me {
                    Reward::Pairwise
                } else {
                    Reward::Best
                };
                assert_eq!(
                    s.node_reward(&end, player, me),
                    reward_for(&end.worth, &[], player, kind, REWARD_SCALE),
                    "{player} for {me}"
                );
            }
        }
        // second place by 2 points: the others' model counts only the leader
        assert!(s.node_reward(&end, 1, 0) < 0.5 && s.node_reward(&end, 1, 1) > 0.5);
        // mcts's players, and the expert's by default, all choose by one reward
        let m = Settings::new(Budget::default());
        assert_eq!(m.others_reward, m.reward);
        let e = crate::expert::ExpertSettings::new(Budget::default()).search;
        assert_eq!(e.others_reward, e.reward);
    }

    /// A tree of the root and its first listed option, and the view's seat.
    fn one_candidate(view: &SeatView) -> (Vec<Node>, u8) {
        let (_, options) = own_options(view).expect("options");
        let me = view.seat();
        let mut tree = vec![Node::new(None, me)];
        tree[0].children = vec![1];
        tree.push(Node::new(Some(options[0].clone()), me));
        (tree, me)
    }

    #[test]
    fn a_playouts_own_decisions_take_the_own_margin_and_the_others_theirs() {
        let game = crate::greedy::tests::base_game_at(5, 8, 4);
        let p = game.pending().expect("pending");
        let view = game.seat_view(p.player);
        let mut s = settings(Search::Tree);
        s.rollout_margin = Margin::Pairwise;
        let mut bot = MctsBot::with_settings(3, s);
        let (mut tree, me) = one_candidate(&view);
        let sample = view.determinize(&mut bot.rng);
        let horizon = (game.tiles_left().saturating_sub(8), 400);
        let done = bot.playout(&mut tree, &sample, 1, 7, horizon);
        assert!(matches!(done, Ok(Some(_))));
        for player in 0..4 {
            let expected = if player == me {
                Margin::Pairwise
            } else {
                Margin::Best
            };
            assert_eq!(bot.rollout_margin(player), expected, "{player}");
        }
    }

    #[test]
    fn a_playout_stops_when_the_time_is_up() {
        let game = game_at(5, 8);
        let p = game.pending().expect("pending");
        let view = game.seat_view(p.player);
        let mut bot = MctsBot::with_settings(3, settings(Search::Tree));
        let (mut tree, _) = one_candidate(&view);
        let sample = view.determinize(&mut bot.rng);
        let horizon = (game.tiles_left().saturating_sub(4), 200);
        let done = bot.playout(&mut tree, &sample, 1, 7, horizon);
        assert!(matches!(done, Ok(Some(_))));
        bot.clock = Budget {
            playouts: 1,
            time: Some(Duration::ZERO),
        }
        .clock(Instant::now());
        let cut = bot.playout(&mut tree, &sample, 1, 7, horizon);
        assert_eq!(cut, Err(OutOfTime));
    }

    #[test]
    fn the_tree_grows_below_the_root_and_the_root_shares_its_samples() {
        let game = game_at(5, 8);
        let p = game.pending().expect("pending");
        let view = game.seat_view(p.player);
        let mut bot = MctsBot::with_settings(3, settings(Search::Tree));
        let (_, options) = own_options(&view).expect("options");
        let options: Vec<Action> = options.into_iter().take(4).collect();
        let me = view.seat();
        let mut tree = vec![Node::new(None, me)];
        tree[0].children = (1..=options.len()).collect();
        tree.extend(options.iter().map(|a| Node::new(Some(a.clone()), me)));
        let stop = game.tiles_left().saturating_sub(2);
        for _ in 0..12 {
            let sample = view.determinize(&mut bot.rng);
            for child in 1..=options.len() {
                let mut g = sample.clone();
                g.play_into(me, &options[child - 1], &mut NoEffects)
                    .expect("listed");
                let mut path = vec![child];
                bot.descend(&mut tree, &mut g, &mut path, stop)
                    .expect("no deadline");
                assert!(
                    path.len() >= 2 || g.pending().is_none(),
                    "one node added or found"
                );
                for &n in &path {
                    tree[n].visits += 1;
                }
            }
        }
        assert!(tree.len() > 1 + options.len() * 2, "{} nodes", tree.len());
        // the player's own figure after the tile is the same decision in every sample:
        // its node is shared and widens with its visits
        let shared = (1..=options.len())
            .flat_map(|c| tree[c].children.clone())
            .filter(|n| tree[*n].player == me)
            .count();
        assert!(shared >= options.len(), "{shared} shared nodes");
    }

    #[test]
    fn a_tree_keyed_by_the_tile_splits_a_reply_by_the_tile_it_answers() {
        let game = game_at(5, 8);
        let p = game.pending().expect("pending");
        let view = game.seat_view(p.player);
        let mut s = settings(Search::Tree);
        s.tile_keyed = true;
        let mut bot = MctsBot::with_settings(3, s);
        let (mut tree, me) = one_candidate(&view);
        let stop = game.tiles_left().saturating_sub(4);
        for _ in 0..60 {
            let mut g = view.determinize(&mut bot.rng);
            g.play_into(
                me,
                tree[1].action.as_ref().expect("candidate"),
                &mut NoEffects,
            )
            .expect("listed");
            let mut path = vec![1];
            bot.descend(&mut tree, &mut g, &mut path, stop)
                .expect("no deadline");
            for &n in &path {
                tree[n].visits += 1;
            }
        }
        // every node below the candidate knows its tile (the base game always draws one)
        assert!(tree[2..].iter().all(|n| n.tile.is_some()));
        // the seat's own figure is one decision whatever the sample: one tile, the drawn one
        let own: Vec<&Node> = tree[1].children.iter().map(|c| &tree[*c]).collect();
        assert!(
            own.iter().all(|n| n.player == me && n.tile == p.tile),
            "own figure"
        );
        // somewhere, siblings of one player with the same action answer different tiles
        let split = (0..tree.len()).any(|n| {
            let kids = &tree[n].children;
            kids.iter().any(|a| {
                kids.iter().any(|b| {
                    tree[*a].action == tree[*b].action
                        && tree[*a].player == tree[*b].player
                        && tree[*a].tile != tree[*b].tile
                })
            })
        });
        assert!(split, "{} nodes, none split by the tile", tree.len());
    }

    #[test]
    fn the_rollout_draws_by_temperature_and_takes_the_best_at_zero() {
        let mut bot = MctsBot::with_settings(3, Settings::new(Budget::default()));
        let values = [1.0, 3.0, f64::NEG_INFINITY, 2.5];
        assert!((0..50).all(|_| bot.drawn(&values, 1) == 1));
        bot.settings.rollout_temperature = 1.0;
        let mut counts = [0usize; 4];
        for _ in 0..4000 {
            counts[bot.drawn(&values, 1)] += 1;
        }
        // weights e^-2, 1, 0, e^-0.5 of 1.74: about 8%, 57%, 0 and 35%
        assert_eq!(counts[2], 0, "{counts:?}");
        assert!(
            counts[1] > counts[3] && counts[3] > counts[0] && counts[0] > 100,
            "{counts:?}"
        );
        // the same seed draws the same
        let mut a = MctsBot::with_settings(9, bot.settings);
        let mut b = MctsBot::with_settings(9, bot.settings);
        let da: Vec<usize> = (0..20).map(|_| a.drawn(&values, 1)).collect();
        let db: Vec<usize> = (0..20).map(|_| b.drawn(&values, 1)).collect();
        assert_eq!(da, db);
    }
}
