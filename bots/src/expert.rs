//! The `expert` level: the search of `mcts` (information-set MCTS over futures sampled from
//! the seat's view), spent where it decides.
//!
//! - **A wider root, raced.** The root keeps the greedy rule's best
//!   [`ExpertSettings::root_options`] options (twice as many as `mcts`; with more than
//!   two players [`ExpertSettings::root_options_more`], fewer). Every sampled
//!   future is played through every candidate still in the race, with the same random
//!   numbers (common random numbers), so that each candidate's rewards pair up with the
//!   leader's, sample by sample. After every batch of samples, a candidate whose paired
//!   difference to the leader is below zero by more than [`ExpertSettings::race`]
//!   standard errors leaves the race: the budget goes to the options still in doubt.
//! - **The endgame to the end.** When the pile holds few tiles (at most
//!   [`ExpertSettings::endgame_rounds`] rounds of them), every playout goes on to the end
//!   of the game and is judged by the final scores, not the static evaluation.
//! - **A longer look.** A playout goes through [`ExpertSettings`]' search's
//!   `rollout_rounds` rounds of tiles (three; `mcts` one) before the static evaluation
//!   judges it; with more than two players, [`ExpertSettings::rollout_rounds_more`]
//!   (one: a round of four players is already as many tiles as two rounds of two, and
//!   longer playouts leave each candidate too few samples within a short time limit),
//!   or [`ExpertSettings::rollout_rounds_more_unhurried`] (two) when the decision has
//!   at least [`ExpertSettings::unhurried`] (1 s) or no time limit, as in the server,
//!   where the budget in playouts, not the time, bounds the samples.
//! - **With expansions, narrower and nearer.** In a game with an expansion other than the
//!   River, a decision has many more options and a turn many more decisions: the root
//!   keeps fewer options, a playout goes through one round and its tile and figure
//!   decisions spend fewer evaluations ([`ExpertSettings::expansions`]), so that each
//!   candidate gets samples enough within the time limit.
//! - **Every decision judged.** A playout takes every decision by the greedy rule (with
//!   the expansions: the abbey, the mage and the witch, the robbers, the messages, the
//!   ferries, the crop circles and the rest; [`Judged::Every`]), where `mcts` judges the
//!   tiles and figures only and takes the others at random, so that a playout plays the
//!   expansions' figures and choices as the players would, not as noise.
//! - **The reward of a rank.** A player's reward is the mean, over the other players,
//!   of a logistic of their margin to each ([`Reward::Pairwise`]): with more than two
//!   players it counts every player passed, not only the margin to the best (`mcts`);
//!   with two, the two are the same.
//! - **Several threads.** With [`ExpertSettings::threads`] above 1, each batch's samples
//!   are shared out among as many threads (each with its own tree below the candidates),
//!   and the batch's results are merged in a fixed order, so that a budget in playouts
//!   gives the same decision for the same seed and number of threads.
//!
//! The time limit is kept as in `mcts` (see `crate::Clock`): the clock is read before
//! every option the greedy ranking judges and every step of a playout, and before each
//! playout a thread checks that its longest playout so far still fits; a sample not
//! played through every candidate in the race is dropped. When no sample is complete, the
//! answer is the greedy rule's pick (when the limit cuts the greedy ranking, the best
//! option it judged).

use std::time::{Duration, Instant};

use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, Expansion, Game, SeatView};

use crate::eval::Margin;
use crate::greedy::{option_values_within, EVALUATIONS};
use crate::mcts::{best_first, Eval, Judged, MctsBot, Node, OutOfTime, Reward, Search, Settings};
use crate::{own_options, Bot, Budget, Clock};

/// Root options kept by the greedy evaluation.
const ROOT_OPTIONS: usize = 10;
/// Standard errors below the leader that end a candidate's race.
const RACE: f64 = 2.5;
/// Samples every candidate plays before any leaves the race.
const RACE_AFTER: usize = 6;
/// Rounds of tiles left from which playouts go on to the end of the game.
const ENDGAME_ROUNDS: usize = 3;
/// Rounds of tiles a playout goes through (in the tree, then the rollout) before the
/// static evaluation (`mcts`: one), in a game of two players.
const ROLLOUT_ROUNDS: usize = 3;
/// The same with more than two players, under a time limit shorter than [`UNHURRIED`]...
const ROLLOUT_ROUNDS_MORE: usize = 1;
/// ...and with a limit of at least [`UNHURRIED`], or none.
const ROLLOUT_ROUNDS_MORE_UNHURRIED: usize = 2;
/// The time limit from which a decision with more than two players looks further.
const UNHURRIED: Duration = Duration::from_secs(1);
/// Root options kept with more than two players.
const ROOT_OPTIONS_MORE: usize = 6;
/// Root options kept in a game with expansions (other than the River alone).
const ROOT_OPTIONS_EXPANSIONS: usize = 5;
/// Rounds of tiles a playout goes through in a game with expansions.
const ROLLOUT_ROUNDS_EXPANSIONS: usize = 1;
/// Evaluations a tile or figure decision of a playout may spend in a game with
/// expansions (the base game's 400 cover a tile's placements with their figures; with
/// expansions, a tile's placements are then judged without looking on to the figure).
const ROLLOUT_EVALUATIONS_EXPANSIONS: usize = 100;
/// Standard errors by which a candidate's paired mean must beat the greedy rule's pick's
/// for the search to choose it over that pick, in a game of two players without
/// expansions (none: the best mean wins)...
const STAY: f64 = 0.0;
/// ...and in a game with expansions, where samples are fewer.
const STAY_EXPANSIONS: f64 = 1.0;

/// The expert's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpertSettings {
    pub budget: Budget,
    pub root_options: usize,
    pub race: f64,
    pub race_after: usize,
    pub endgame_rounds: usize,
    pub threads: usize,
    /// Rounds of tiles a playout goes through with more than two players (with two: the
    /// search's `rollout_rounds`), under a time limit shorter than `unhurried`...
    pub rollout_rounds_more: usize,
    /// ...and with a time limit of at least `unhurried`, or none.
    pub rollout_rounds_more_unhurried: usize,
    /// The time limit from which a decision with more than two players looks
    /// `rollout_rounds_more_unhurried` rounds ahead.
    pub unhurried: Duration,
    /// Root options kept with more than two players (with two: `root_options`).
    pub root_options_more: usize,
    /// Tiles a playout goes through beyond its rounds (short of them when negative)
    /// before the static evaluation judges it. A playout of `R` rounds plays on while at
    /// least `L - R n` tiles are left (`L` at the root, `n` players), so that it ends
    /// right after the searcher's own decisions on the tile drawn last, with the others'
    /// replies still to come; -1 ends it after those of the player before.
    pub extra_tiles: isize,
    /// Standard errors of the paired differences by which the best mean must beat the
    /// greedy rule's pick (the first candidate) for the search to choose it over that pick,
    /// when the pick is still in the race (0: the best mean wins).
    pub stay: f64,
    /// In a game with expansions other than the River: the root options kept, the rounds
    /// of a playout and the evaluations of a playout's tile or figure decision (each the
    /// smaller of this and the setting for the table size).
    pub expansions: Shape,
    /// The search below the root candidates (exploration, widening, rollout horizon).
    pub search: Settings,
}

impl ExpertSettings {
    pub fn new(budget: Budget) -> ExpertSettings {
        ExpertSettings {
            budget,
            root_options: ROOT_OPTIONS,
            race: RACE,
            race_after: RACE_AFTER,
            endgame_rounds: ENDGAME_ROUNDS,
            threads: 1,
            rollout_rounds_more: ROLLOUT_ROUNDS_MORE,
            rollout_rounds_more_unhurried: ROLLOUT_ROUNDS_MORE_UNHURRIED,
            unhurried: UNHURRIED,
            root_options_more: ROOT_OPTIONS_MORE,
            extra_tiles: 0,
            stay: STAY,
            expansions: Shape {
                root_options: ROOT_OPTIONS_EXPANSIONS,
                rollout_rounds: ROLLOUT_ROUNDS_EXPANSIONS,
                rollout_evaluations: ROLLOUT_EVALUATIONS_EXPANSIONS,
                stay: STAY_EXPANSIONS,
            },
            search: Settings {
                search: Search::Tree,
                eval: Eval::Hand,
                rollout_rounds: ROLLOUT_ROUNDS,
                reward: Reward::Pairwise,
                others_reward: Reward::Pairwise,
                judged: Judged::Every,
                ..Settings::new(budget)
            },
        }
    }
}

/// How far the search spreads and looks, for one kind of game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    pub root_options: usize,
    pub rollout_rounds: usize,
    pub rollout_evaluations: usize,
    /// See [`ExpertSettings::stay`] (the larger of the two is used).
    pub stay: f64,
}

impl ExpertSettings {
    /// The settings for a decision in `game`: with more than two players, the root options
    /// and rounds for more (the rounds for the budget's time limit); with expansions
    /// (other than the River alone), at most theirs. The resolved settings have
    /// `root_options` and `search.rollout_rounds` set to the ones used.
    pub fn for_game(&self, game: &Game) -> ExpertSettings {
        let mut s = *self;
        if game.player_count() > 2 {
            s.root_options = s.root_options_more;
            let unhurried = s.budget.time.is_none_or(|t| t >= s.unhurried);
            s.search.rollout_rounds = if unhurried {
                s.rollout_rounds_more_unhurried
            } else {
                s.rollout_rounds_more
            };
        }
        if game.expansions().iter().any(|e| e != Expansion::River) {
            s.root_options = s.root_options.min(s.expansions.root_options);
            s.search.rollout_rounds = s.search.rollout_rounds.min(s.expansions.rollout_rounds);
            s.search.rollout_evaluations = s
                .search
                .rollout_evaluations
                .min(s.expansions.rollout_evaluations);
            s.stay = s.stay.max(s.expansions.stay);
        }
        s
    }
}

/// The expert level.
pub struct ExpertBot {
    rng: Rng,
    settings: ExpertSettings,
}

impl ExpertBot {
    pub fn new(seed: u64, budget: Budget) -> ExpertBot {
        ExpertBot::with_settings(seed, ExpertSettings::new(budget))
    }

    pub fn with_settings(seed: u64, settings: ExpertSettings) -> ExpertBot {
        ExpertBot {
            rng: Rng::new(seed),
            settings,
        }
    }
}

impl Bot for ExpertBot {
    fn name(&self) -> &'static str {
        "expert"
    }

    fn decide(&mut self, view: &SeatView) -> Option<Action> {
        let clock = self.settings.budget.clock(Instant::now());
        let (game, options) = own_options(view)?;
        if options.len() == 1 {
            return options.into_iter().next();
        }
        let (values, complete) = option_values_within(
            game,
            view.seat(),
            &options,
            EVALUATIONS,
            (Eval::Hand, Margin::Best),
            clock.as_ref(),
        );
        let settings = self.settings.for_game(game);
        let candidates: Vec<Action> = best_first(&values, settings.root_options.max(1))
            .into_iter()
            .map(|i| options[i].clone())
            .collect();
        if candidates.len() == 1 || !complete {
            // with the greedy ranking cut by the time limit, the best option it judged
            return candidates.into_iter().next();
        }
        let seed = self.rng.next_u64();
        let race = Race::new(&settings, view, &candidates, seed).run(clock);
        let pick = race.unwrap_or(0);
        candidates.into_iter().nth(pick)
    }
}

/// One thread's part of the search: its own random numbers and tree below the candidates.
struct Worker {
    search: MctsBot,
    tree: Vec<Node>,
    longest: Duration,
}

/// The race of the root candidates over batches of shared samples.
struct Race<'a> {
    settings: &'a ExpertSettings,
    view: &'a SeatView,
    candidates: &'a [Action],
    seed: u64,
    /// Every candidate's reward on each sample it played (samples in the merged order).
    rewards: Vec<Vec<f64>>,
    alive: Vec<bool>,
    /// The tiles left to stop at and the most steps of a playout.
    horizon: (usize, usize),
}

/// A playout's horizon with `players` at the table and `left` tiles left at the root: the
/// tiles left to stop at (a playout plays on while at least that many are left) and its
/// most steps; from the endgame's rounds on, the game's end.
fn horizon(settings: &ExpertSettings, players: usize, left: usize) -> (usize, usize) {
    if left <= settings.endgame_rounds * players {
        (0, usize::MAX)
    } else {
        let tiles =
            (settings.search.rollout_rounds * players).saturating_add_signed(settings.extra_tiles);
        (left.saturating_sub(tiles), 40 * tiles + 40)
    }
}

impl<'a> Race<'a> {
    fn new(
        settings: &'a ExpertSettings,
        view: &'a SeatView,
        candidates: &'a [Action],
        seed: u64,
    ) -> Race<'a> {
        let game = view.game();
        let players = game.player_count() as usize;
        let left = game.tiles_left();
        let horizon = horizon(settings, players, left);
        Race {
            settings,
            view,
            candidates,
            seed,
            rewards: vec![Vec::new(); candidates.len()],
            alive: vec![true; candidates.len()],
            horizon,
        }
    }

    /// The winning candidate's index, or `None` when no sample was complete; each thread
    /// keeps `clock`, the decision's time limit, if any.
    fn run(mut self, clock: Option<Clock>) -> Option<usize> {
        let threads = self.settings.threads.max(1);
        let me = self.view.seat();
        let mut workers: Vec<Worker> = (0..threads)
            .map(|t| {
                let mut tree = vec![Node::new(None, me)];
                tree[0].children = (1..=self.candidates.len()).collect();
                tree.extend(
                    self.candidates
                        .iter()
                        .map(|a| Node::new(Some(a.clone()), me)),
                );
                let mut search =
                    MctsBot::with_settings(mix(self.seed, t as u64, 0), self.settings.search);
                search.clock = clock.clone();
                Worker {
                    search,
                    tree,
                    longest: Duration::ZERO,
                }
            })
            .collect();
        let budget = u64::from(self.settings.budget.playouts.max(1));
        let mut spent = 0u64;
        let mut batch = 0u64;
        while spent < budget && self.alive.iter().filter(|a| **a).count() > 1 {
            let alive: Vec<usize> = (0..self.candidates.len())
                .filter(|i| self.alive[*i])
                .collect();
            let results: Vec<Option<Vec<f64>>> = if threads == 1 {
                vec![self.sample(&mut workers[0], batch, 0, &alive)]
            } else {
                let this = &self;
                let alive = &alive;
                std::thread::scope(|s| {
                    let handles: Vec<_> = workers
                        .iter_mut()
                        .enumerate()
                        .map(|(t, w)| s.spawn(move || this.sample(w, batch, t as u64, alive)))
                        .collect();
                    handles
                        .into_iter()
                        .map(|h| h.join().ok().flatten())
                        .collect()
                })
            };
            let mut cut = false;
            for r in results {
                match r {
                    Some(r) => {
                        for (i, x) in alive.iter().zip(r) {
                            self.rewards[*i].push(x);
                        }
                        spent += alive.len() as u64;
                    }
                    None => cut = true,
                }
            }
            if cut {
                break;
            }
            self.eliminate();
            batch += 1;
        }
        if self.rewards.iter().all(Vec::is_empty) {
            return None;
        }
        // the best mean among those still in the race (ties: the better ranked)
        let best = (0..self.candidates.len())
            .filter(|i| self.alive[*i] && !self.rewards[*i].is_empty())
            .max_by(|a, b| self.mean(*a).total_cmp(&self.mean(*b)).then(b.cmp(a)))?;
        Some(self.or_greedy_pick(best))
    }

    /// `best`, unless the greedy rule's pick (candidate 0) is still in the race and `best`
    /// does not beat it by more than `stay` standard errors of their paired differences
    /// (over fewer than two samples, there is no standard error: the pick stays).
    fn or_greedy_pick(&self, best: usize) -> usize {
        if best == 0 || self.settings.stay <= 0.0 || !self.alive[0] {
            return best;
        }
        let n = self.rewards[best].len().min(self.rewards[0].len());
        if n < 2 {
            return 0;
        }
        let (mean, se) = paired(&self.rewards[best][..n], &self.rewards[0][..n]);
        if mean > self.settings.stay * se {
            best
        } else {
            0
        }
    }

    fn mean(&self, i: usize) -> f64 {
        let r = &self.rewards[i];
        r.iter().sum::<f64>() / r.len().max(1) as f64
    }

    /// Ends the race of every candidate behind the leader by more than `race` standard
    /// errors of their paired differences (over the samples both played: every sample of
    /// the candidate, since the leader has never left the race).
    fn eliminate(&mut self) {
        let Some(leader) = (0..self.candidates.len())
            .filter(|i| self.alive[*i])
            .max_by(|a, b| self.mean(*a).total_cmp(&self.mean(*b)).then(b.cmp(a)))
        else {
            return;
        };
        for i in 0..self.candidates.len() {
            if i == leader || !self.alive[i] {
                continue;
            }
            let n = self.rewards[i].len();
            if n < self.settings.race_after {
                continue;
            }
            let (mean, se) = paired(&self.rewards[leader][..n], &self.rewards[i]);
            if mean > 0.0 && mean > self.settings.race * se {
                self.alive[i] = false;
            }
        }
    }

    /// One sample of batch `batch` for thread `t`, played through every candidate in
    /// `alive` with the same random numbers; `None` when the time limit cut it.
    fn sample(&self, w: &mut Worker, batch: u64, t: u64, alive: &[usize]) -> Option<Vec<f64>> {
        let clock = w.search.clock.clone();
        let over = |extra: Duration| clock.as_ref().is_some_and(|c| c.up_after(extra));
        let mut rng = Rng::new(mix(self.seed, batch, t + 1));
        let sample_started = Instant::now();
        let sample = self.view.determinize(&mut rng);
        let seed = rng.next_u64();
        let me = self.view.seat();
        let mut out = Vec::with_capacity(alive.len());
        for (k, &i) in alive.iter().enumerate() {
            if over(w.longest) {
                return None;
            }
            let playout_started = Instant::now();
            let r = match w
                .search
                .playout(&mut w.tree, &sample, i + 1, seed, self.horizon)
            {
                Ok(Some(end)) => self.settings.search.reward_of(&end, me),
                Ok(None) => 0.0,
                Err(OutOfTime) => return None,
            };
            w.tree[i + 1].visits += 1;
            w.tree[i + 1].reward += r;
            out.push(r);
            let took = if k == 0 {
                sample_started.elapsed()
            } else {
                playout_started.elapsed()
            };
            w.longest = w.longest.max(took);
        }
        Some(out)
    }
}

/// The mean of the differences `a[k] − b[k]` and its standard error (infinite with fewer
/// than two pairs).
fn paired(a: &[f64], b: &[f64]) -> (f64, f64) {
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let n = diffs.len() as f64;
    let mean = diffs.iter().sum::<f64>() / n.max(1.0);
    if diffs.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = diffs.iter().map(|d| (d - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// A seed mixed from three numbers (SplitMix64 steps).
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut r = Rng::new(seed ^ a.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let x = r.next_u64() ^ b.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    Rng::new(x).next_u64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game_at(seed: u64, tiles: usize, players: u8) -> Game {
        crate::greedy::tests::base_game_at(seed, tiles, players)
    }

    fn budget(playouts: u32) -> Budget {
        Budget {
            playouts,
            time: None,
        }
    }

    fn new_game(players: u8, expansions: Vec<Expansion>) -> Game {
        Game::new(&tilepost_engine::GameConfig {
            players,
            expansions,
            seed: 3,
            ..Default::default()
        })
        .expect("set-up")
        .0
    }

    #[test]
    fn a_playouts_horizon_counts_its_rounds_and_extra_tiles() {
        let mut s = ExpertSettings::new(Budget::default());
        s.search.rollout_rounds = 2;
        assert_eq!(horizon(&s, 4, 40), (32, 360));
        s.extra_tiles = -1;
        assert_eq!(horizon(&s, 4, 40).0, 33);
        s.extra_tiles = 3;
        assert_eq!(horizon(&s, 4, 40).0, 29);
        s.extra_tiles = -100;
        assert_eq!(horizon(&s, 4, 40), (40, 40));
        // the endgame's rounds: to the end, whatever the extra tiles
        assert_eq!(horizon(&s, 4, 12), (0, usize::MAX));
        assert_eq!(horizon(&s, 2, 6).0, 0);
        assert_eq!(horizon(&s, 2, 7).0, 7);
    }

    #[test]
    fn the_settings_follow_the_table_size_and_the_expansions() {
        let settings = ExpertSettings::new(budget(100));
        let shape = |s: ExpertSettings| {
            (
                s.root_options,
                s.search.rollout_rounds,
                s.search.rollout_evaluations,
            )
        };
        let base = settings.search.rollout_evaluations;
        // a playout judges every decision, whatever the game
        assert_eq!(settings.search.judged, Judged::Every);
        // 2 players, the base game or the River alone: as set
        for expansions in [vec![], vec![Expansion::River]] {
            let game = new_game(2, expansions);
            assert_eq!(shape(settings.for_game(&game)), (10, 3, base));
            assert_eq!(settings.for_game(&game).stay, 0.0);
        }
        // more players: fewer options; one round under a short time limit, two with a
        // long one or none
        let within = |ms: u64| ExpertSettings {
            budget: Budget {
                playouts: 100,
                time: Some(Duration::from_millis(ms)),
            },
            ..settings
        };
        let four = new_game(4, vec![]);
        assert_eq!(shape(within(100).for_game(&four)), (6, 1, base));
        assert_eq!(shape(within(999).for_game(&four)), (6, 1, base));
        assert_eq!(shape(within(1000).for_game(&four)), (6, 2, base));
        assert_eq!(shape(within(3000).for_game(&four)), (6, 2, base));
        assert_eq!(shape(settings.for_game(&four)), (6, 2, base));
        // two players: the same whatever the time
        let two = new_game(2, vec![]);
        assert_eq!(shape(within(100).for_game(&two)), (10, 3, base));
        // expansions: at most their shape, whatever the table size
        let all: Vec<Expansion> = Expansion::ALL
            .into_iter()
            .filter(|e| e.is_implemented())
            .collect();
        for players in [2, 4] {
            let game = new_game(players, all.clone());
            assert_eq!(shape(settings.for_game(&game)), (5, 1, 100));
            assert_eq!(shape(within(100).for_game(&game)), (5, 1, 100));
            assert_eq!(settings.for_game(&game).stay, 1.0);
        }
        let game = new_game(2, vec![Expansion::InnsCathedrals]);
        assert_eq!(shape(settings.for_game(&game)), (5, 1, 100));
    }

    #[test]
    fn a_seed_and_a_number_of_threads_give_the_same_decision() {
        for (i, tiles) in [4, 30, 66].into_iter().enumerate() {
            let game = game_at(80 + i as u64, tiles, 2);
            let p = game.pending().expect("pending");
            let view = game.seat_view(p.player);
            for threads in [1, 2] {
                let settings = ExpertSettings {
                    threads,
                    ..ExpertSettings::new(budget(120))
                };
                let first = ExpertBot::with_settings(5, settings).decide(&view);
                let again = ExpertBot::with_settings(5, settings).decide(&view);
                let action = first.clone().expect("a decision");
                assert_eq!(first, again, "{threads} threads after {tiles} tiles");
                assert!(game.legal_actions().contains(&action), "{action:?}");
            }
        }
    }

    #[test]
    fn with_no_time_at_all_the_answer_is_the_first_listed_option_at_once() {
        // the time is up before the greedy rule has judged any option
        let game = game_at(12, 9, 3);
        let p = game.pending().expect("pending");
        let view = game.seat_view(p.player);
        let started = Instant::now();
        let action = ExpertBot::new(
            1,
            Budget {
                playouts: 10_000,
                time: Some(Duration::ZERO),
            },
        )
        .decide(&view)
        .expect("a decision");
        let took = started.elapsed();
        let (_, options) = own_options(&view).expect("options");
        assert!(options.len() > 1);
        assert_eq!(action, options[0]);
        assert!(took < Duration::from_millis(500), "{took:?}");
    }

    #[test]
    fn a_time_limit_ends_the_search_within_it() {
        // a budget in playouts far beyond the limit: the clock ends the search (the bound
        // checked with room for a machine busy with other work)
        for players in [2, 4] {
            let game = game_at(31, 12, players);
            let p = game.pending().expect("pending");
            let view = game.seat_view(p.player);
            let limit = Duration::from_millis(60);
            let started = Instant::now();
            let action = ExpertBot::new(
                2,
                Budget {
                    playouts: 1_000_000,
                    time: Some(limit),
                },
            )
            .decide(&view)
            .expect("a decision");
            let took = started.elapsed();
            assert!(game.legal_actions().contains(&action), "{action:?}");
            assert!(took < limit * 3, "{players} players: {took:?}");
        }
    }

    #[test]
    fn the_greedy_pick_stays_unless_beaten_by_the_margin_asked() {
        at_options(|view, options| {
            let candidates: Vec<Action> = options.into_iter().take(3).collect();
            greedy_pick_checks(view, &candidates);
        });
    }

    fn greedy_pick_checks(view: &SeatView, candidates: &[Action]) {
        let with = |stay: f64, rewards: Vec<Vec<f64>>| {
            let settings = ExpertSettings {
                stay,
                ..ExpertSettings::new(budget(400))
            };
            let mut race = Race::new(&settings, view, candidates, 3);
            race.rewards = rewards;
            let best = (0..3)
                .max_by(|a, b| race.mean(*a).total_cmp(&race.mean(*b)))
                .expect("a best");
            race.or_greedy_pick(best)
        };
        // candidate 2 ahead of the pick by 0.05 on every sample but one: far more than one
        // standard error
        let clear = vec![
            vec![0.5, 0.6, 0.5, 0.6],
            vec![0.4, 0.4, 0.4, 0.4],
            vec![0.55, 0.65, 0.55, 0.6],
        ];
        assert_eq!(with(1.0, clear.clone()), 2);
        // ahead on the mean, but within the noise of the pairs: the pick stays
        let noisy = vec![
            vec![0.5, 0.6, 0.5, 0.6],
            vec![0.4, 0.4, 0.4, 0.4],
            vec![0.9, 0.3, 0.8, 0.3],
        ];
        assert_eq!(with(1.0, noisy.clone()), 0);
        // with no margin asked, the best mean wins
        assert_eq!(with(0.0, noisy), 2);
        // one sample gives no standard error: the pick stays
        let once = vec![vec![0.5], vec![0.4], vec![0.9]];
        assert_eq!(with(1.0, once), 0);
    }

    #[test]
    fn the_race_ends_for_candidates_far_behind() {
        at_options(|view, options| {
            let settings = ExpertSettings::new(budget(400));
            let candidates: Vec<Action> = options.into_iter().take(settings.root_options).collect();
            let mut race = Race::new(&settings, view, &candidates, 3);
            // a candidate a whole point behind on every sample leaves; one level stays
            race.rewards = vec![vec![0.6, 0.7, 0.65, 0.6, 0.7, 0.62]; candidates.len()];
            race.rewards[1] = vec![0.1, 0.2, 0.15, 0.1, 0.2, 0.12];
            race.eliminate();
            assert!(!race.alive[1]);
            assert!(race.alive.iter().filter(|a| **a).count() == candidates.len() - 1);
        });
    }

    /// The decider's view and options in a base game after 20 greedy tiles (seed 21, 2
    /// players), handed to `check`.
    fn at_options(check: impl FnOnce(&SeatView, Vec<Action>)) {
        let game = game_at(21, 20, 2);
        let p = game.pending().expect("pending");
        let view = game.seat_view(p.player);
        let (_, options) = own_options(&view).expect("options");
        check(&view, options);
    }
}
