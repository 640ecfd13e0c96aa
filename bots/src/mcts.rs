//! The `mcts` level: information-set Monte Carlo search over sampled hidden futures.
//!
//! Every playout starts from a game sampled from the seat's view
//! (`SeatView::determinize`): the tiles left, the die and the unseen messages drawn anew
//! from the bot's own random numbers, the visible past kept; the real pile is never read.
//! A playout goes on for a round or so of quick decisions (tiles and figures by the
//! greedy rule with a small evaluation budget, the other decisions at random) and ends in the static evaluation
//! (`crate::eval`), turned into a reward in `[0, 1]` for each player (a logistic of their
//! margin).
//!
//! At the root, a decision with many options (tile placements) keeps only the best ones
//! by the greedy evaluation, so that the budget goes to the plausible moves. Two searches
//! share this:
//!
//! - [`Search::Paired`] (the default): every candidate is played on every sampled future
//!   (common random numbers), so that candidates are compared on the same tiles and dice;
//!   the best mean reward wins. This is the one the measured figures in `docs/bots.md`
//!   are for.
//! - [`Search::Tree`]: single-observer information-set MCTS (Cowling, Powley and
//!   Whitehouse, 2012): the tree's nodes are sequences of actions shared by every sample,
//!   a node's children are the actions listed in some sample, and selection (UCB1 with
//!   availability counts) considers only those listed in the current one; every node
//!   keeps the rewards of the player who chose its action; the answer is the most visited
//!   child. Measured weaker than the paired search at the same budget.

use std::time::Instant;

use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, Game, NoEffects, Phase};

use crate::eval::{margin, worth};
use crate::greedy::{option_values, EVALUATIONS};
use crate::{own_options, Bot, Budget, SeatView};

/// Root options kept by the greedy evaluation.
const ROOT_OPTIONS: usize = 5;
/// Exploration constant of UCB1 (rewards in `[0, 1]`).
const EXPLORATION: f64 = 0.7;
/// Rounds of quick random decisions after the tree, before the evaluation.
const ROLLOUT_ROUNDS: usize = 1;
/// Evaluations a rollout decision may spend (enough for the greedy rule's full look at a
/// base-game tile; with expansions' many options, each option is judged with its pass).
const ROLLOUT_EVALUATIONS: usize = 400;
/// Points of margin that make a reward of about 0.73 (the logistic's scale).
const REWARD_SCALE: f64 = 10.0;

/// How the budget is spent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Search {
    /// Every root candidate on every sampled future, the best mean wins.
    Paired,
    /// Information-set MCTS with a tree below the root.
    Tree,
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    pub budget: Budget,
    pub root_options: usize,
    pub exploration: f64,
    pub rollout_rounds: usize,
    pub search: Search,
}

impl Settings {
    pub fn new(budget: Budget) -> Settings {
        Settings {
            budget,
            root_options: ROOT_OPTIONS,
            exploration: EXPLORATION,
            rollout_rounds: ROLLOUT_ROUNDS,
            search: Search::Paired,
        }
    }
}

/// Information-set MCTS.
pub struct MctsBot {
    rng: Rng,
    settings: Settings,
}

impl MctsBot {
    pub fn new(seed: u64, budget: Budget) -> MctsBot {
        MctsBot::with_settings(seed, Settings::new(budget))
    }

    pub fn with_settings(seed: u64, settings: Settings) -> MctsBot {
        MctsBot {
            rng: Rng::new(seed),
            settings,
        }
    }
}

struct Node {
    action: Option<Action>,
    /// The player who chose `action`.
    player: u8,
    children: Vec<usize>,
    visits: u32,
    /// Playouts in which this node's action was listed.
    available: u32,
    reward: f64,
}

impl Node {
    fn new(action: Option<Action>, player: u8) -> Node {
        Node {
            action,
            player,
            children: Vec::new(),
            visits: 0,
            available: 0,
            reward: 0.0,
        }
    }
}

impl Bot for MctsBot {
    fn name(&self) -> &'static str {
        "mcts"
    }

    fn decide(&mut self, view: &SeatView) -> Option<Action> {
        let (game, mut options) = own_options(view)?;
        if options.len() == 1 {
            return options.pop();
        }
        let me = view.seat();
        if options.len() > self.settings.root_options {
            let values = option_values(game, me, &options, EVALUATIONS);
            let mut order: Vec<usize> = (0..options.len()).collect();
            order.sort_by(|a, b| values[*b].total_cmp(&values[*a]).then(a.cmp(b)));
            order.truncate(self.settings.root_options);
            order.sort_unstable();
            options = order.into_iter().map(|i| options[i].clone()).collect();
        }
        let started = self.settings.budget.time.map(|_| Instant::now());
        if self.settings.search == Search::Paired {
            return self.paired(view, options, started);
        }
        let mut tree = vec![Node::new(None, me)];
        tree[0].children = (0..options.len()).map(|i| i + 1).collect();
        tree.extend(options.iter().map(|a| Node::new(Some(a.clone()), me)));
        for done in 0..self.settings.budget.playouts.max(1) {
            if let (Some(limit), Some(t)) = (self.settings.budget.time, started) {
                if done > 0 && t.elapsed() >= limit {
                    break;
                }
            }
            let sample = view.determinize(&mut self.rng);
            self.playout(&mut tree, sample);
        }
        let best = tree[0]
            .children
            .iter()
            .copied()
            .max_by(|a, b| {
                let (x, y) = (&tree[*a], &tree[*b]);
                x.visits
                    .cmp(&y.visits)
                    .then(x.reward.total_cmp(&y.reward))
                    .then(b.cmp(a))
            })
            .and_then(|i| tree[i].action.clone());
        best.or_else(|| options.into_iter().next())
    }
}

impl MctsBot {
    /// Every candidate on every sampled future (the same rollout seed for all of them);
    /// the budget counts one playout per candidate and sample.
    fn paired(
        &mut self,
        view: &SeatView,
        options: Vec<Action>,
        started: Option<Instant>,
    ) -> Option<Action> {
        let me = view.seat();
        let mut sums = vec![0.0; options.len()];
        let mut done = 0u32;
        while done < self.settings.budget.playouts.max(1) {
            if let (Some(limit), Some(t)) = (self.settings.budget.time, started) {
                if done > 0 && t.elapsed() >= limit {
                    break;
                }
            }
            let sample = view.determinize(&mut self.rng);
            let seed = self.rng.next_u64();
            for (i, a) in options.iter().enumerate() {
                let mut g = sample.clone();
                if g.play_into(me, a, &mut NoEffects).is_err() {
                    sums[i] = f64::NEG_INFINITY;
                    continue;
                }
                let keep = std::mem::replace(&mut self.rng, Rng::new(seed));
                self.rollout(&mut g);
                self.rng = keep;
                let m = margin(&worth(&g), me);
                sums[i] += 1.0 / (1.0 + (-m / REWARD_SCALE).exp());
                done += 1;
            }
        }
        let best =
            (0..options.len()).max_by(|a, b| sums[*a].total_cmp(&sums[*b]).then(b.cmp(a)))?;
        options.into_iter().nth(best)
    }

    /// One playout on a sampled game: selection and expansion in the tree, quick random
    /// decisions, evaluation, and the rewards taken back up the path.
    fn playout(&mut self, tree: &mut Vec<Node>, mut game: Game) {
        let mut path = vec![0usize];
        let mut node = 0usize;
        while let Some(pending) = game.pending() {
            let player = pending.player;
            let listed: Vec<usize> = if node == 0 {
                tree[0].children.clone()
            } else {
                let options = game.legal_actions();
                let mut listed = Vec::with_capacity(options.len());
                let mut untried = Vec::new();
                for a in options {
                    match tree[node]
                        .children
                        .iter()
                        .find(|c| tree[**c].action.as_ref() == Some(&a))
                    {
                        Some(c) => listed.push(*c),
                        None => untried.push(a),
                    }
                }
                if !untried.is_empty() {
                    // expansion: one new child, then the rollout
                    let a = untried.swap_remove(self.rng.below(untried.len() as u64) as usize);
                    if game.play_into(player, &a, &mut NoEffects).is_err() {
                        break;
                    }
                    tree.push(Node::new(Some(a), player));
                    let child = tree.len() - 1;
                    tree[node].children.push(child);
                    for c in &listed {
                        tree[*c].available += 1;
                    }
                    tree[child].available += 1;
                    path.push(child);
                    break;
                }
                listed
            };
            if listed.is_empty() {
                break;
            }
            for c in &listed {
                tree[*c].available += 1;
            }
            let chosen = self.select(tree, &listed);
            let Some(action) = tree[chosen].action.clone() else {
                break;
            };
            if game.play_into(player, &action, &mut NoEffects).is_err() {
                break;
            }
            path.push(chosen);
            node = chosen;
        }
        self.rollout(&mut game);
        let w = worth(&game);
        for &n in &path[1..] {
            let m = margin(&w, tree[n].player);
            tree[n].visits += 1;
            tree[n].reward += 1.0 / (1.0 + (-m / REWARD_SCALE).exp());
        }
        tree[0].visits += 1;
    }

    /// UCB1 with availability counts among the listed children (an unvisited one first).
    fn select(&mut self, tree: &[Node], listed: &[usize]) -> usize {
        let unvisited: Vec<usize> = listed
            .iter()
            .copied()
            .filter(|c| tree[*c].visits == 0)
            .collect();
        if !unvisited.is_empty() {
            return unvisited[self.rng.below(unvisited.len() as u64) as usize];
        }
        let c = self.settings.exploration;
        listed
            .iter()
            .copied()
            .map(|i| {
                let n = &tree[i];
                let visits = f64::from(n.visits);
                let ucb =
                    n.reward / visits + c * (f64::from(n.available.max(1)).ln() / visits).sqrt();
                (i, ucb)
            })
            .fold((listed[0], f64::NEG_INFINITY), |best, x| {
                if x.1 > best.1 {
                    x
                } else {
                    best
                }
            })
            .0
    }

    /// Quick decisions for a few rounds: tiles and figures by the greedy rule with a small
    /// evaluation budget, the other decisions at random.
    fn rollout(&mut self, game: &mut Game) {
        let tiles = self.settings.rollout_rounds * game.player_count() as usize;
        let stop = game.tiles_left().saturating_sub(tiles);
        let mut steps = 0;
        while let Some(p) = game.pending() {
            if game.tiles_left() < stop || steps > 40 * tiles + 40 {
                break;
            }
            steps += 1;
            let options = game.legal_actions();
            if options.is_empty() {
                break;
            }
            let light = matches!(p.phase, Phase::PlaceTile | Phase::PlaceFigure);
            let pick = if light && options.len() > 1 {
                let values = option_values(game, p.player, &options, ROLLOUT_EVALUATIONS);
                (0..options.len())
                    .max_by(|a, b| values[*a].total_cmp(&values[*b]).then(b.cmp(a)))
                    .unwrap_or(0)
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
    }
}
