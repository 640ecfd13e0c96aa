//! The arena: bots play each other for many games, and a report gives each bot's win
//! rate with a 95% confidence interval (Wilson), its mean rank and rank points (fair with
//! more than two players), and its time per decision. A round robin plays every pair of
//! the listed bots.
//!
//! Game `g` (from 0) seats bot `(s + g) mod B` in seat `s` (B bots), so with two bots and
//! two players every other game swaps the seats. A game's seed and each bot's seed follow
//! from the arena's seed and the game's number alone, so a run gives the same games
//! whatever the number of threads (with a budget in playouts; a time limit is not
//! repeatable). A bot wins a game when it ranks first; bots tied for first share the win
//! (two tied players get half a win each). A bot's win rate is its wins over the seats it
//! played. A seat's rank is its place in the final ranking, tied players sharing the
//! places they cover (two tied for first both rank 1.5); its rank points are
//! `(P − rank) / (P − 1)` with `P` players (1 for first, 0 for last; in a 2-player game
//! the same as a win). The same bot listed several times (the same level and budget) is
//! reported once, over all its seats. Time per decision counts the decisions where the
//! bot had more than one option.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tilepost_engine::rng::Rng;
use tilepost_engine::{Game, GameConfig, Phase};

use crate::eval::{open_feature_outcome, open_features, OpenFeature, FEATURES};

mod options;
pub use options::{help, Entrant, Options, FLAGS, USAGE};

use crate::expert::{ExpertBot, ExpertSettings};
use crate::greedy::GreedyBot;
use crate::mcts::{Eval, MctsBot, Settings};
use crate::{Bot, Budget, Level};
/// One bot's results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotReport {
    pub name: String,
    /// Seats played (games times seats per game).
    pub seats: usize,
    /// Wins, a tie for first shared.
    pub wins: f64,
    /// The sum of the seats' ranks and of their squares (ties sharing places).
    pub rank_sum: f64,
    pub rank_squares: f64,
    /// The sum of the seats' rank points (1 for first, 0 for last).
    pub rank_points: f64,
    /// The seats that finished in each place, first to last (a tie for a place shares it).
    pub places: Vec<f64>,
    pub mean_score: f64,
    pub decisions: usize,
    pub mean_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    /// Decisions that took longer than the time limit (wall clock).
    pub over_limit: usize,
    /// The same less the time the deciding thread waited for a core (Linux's
    /// `/proc/thread-self/schedstat`; elsewhere nothing is taken off), and its maximum.
    pub over_limit_running: usize,
    pub max_running_ms: f64,
    /// Decisions whose thread was on a core longer than the time limit (its CPU-time
    /// clock, which leaves out its waits for a core and, where the kernel accounts for
    /// it, the time a virtual machine's host took the core away: steal time), and its
    /// maximum. Elsewhere than Linux, the wall clock.
    pub over_limit_ran: usize,
    pub max_ran_ms: f64,
}

impl BotReport {
    pub fn win_rate(&self) -> f64 {
        if self.seats == 0 {
            0.0
        } else {
            self.wins / self.seats as f64
        }
    }

    /// The 95% Wilson interval of the win rate.
    pub fn wilson(&self) -> (f64, f64) {
        wilson(self.win_rate(), self.seats)
    }

    /// The mean rank (1 is first).
    pub fn mean_rank(&self) -> f64 {
        self.rank_sum / self.seats.max(1) as f64
    }

    /// The half-width of the mean rank's 95% interval (normal approximation).
    pub fn rank_half_width(&self) -> f64 {
        let n = self.seats as f64;
        if n < 2.0 {
            return f64::INFINITY;
        }
        let mean = self.mean_rank();
        let var = ((self.rank_squares - n * mean * mean) / (n - 1.0)).max(0.0);
        1.959_964 * (var / n).sqrt()
    }

    /// The mean rank points per seat (0 to 1).
    pub fn mean_rank_points(&self) -> f64 {
        self.rank_points / self.seats.max(1) as f64
    }
}

/// The 95% Wilson score interval for a proportion `p` out of `n`.
pub fn wilson(p: f64, n: usize) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = n as f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The arena's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub options: Options,
    pub bots: Vec<BotReport>,
    pub elapsed: Duration,
    /// The machine's steal time over the run, summed over its cores: the time a virtual
    /// machine's host kept them from running it (Linux's `/proc/stat`; none elsewhere).
    pub steal: Option<Duration>,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        let exp: Vec<&str> = o.expansions.iter().map(|e| e.id()).collect();
        writeln!(
            f,
            "{} games, {} players, expansions: {}, seed {}, budget: {} playouts{}{}{}{}, {} threads, {:.1} s",
            o.games,
            o.players,
            if exp.is_empty() { "none".to_string() } else { exp.join(",") },
            o.seed,
            o.budget.playouts,
            if o.bots.iter().any(|e| e.playouts.is_some()) { " where a bot names none" } else { "" },
            o.budget.time.map_or(String::new(), |t| format!(" or {} ms", t.as_millis())),
            o.search.map_or(String::new(), |s| format!(", {s:?} search")),
            if o.expert_threads > 1 { format!(", expert on {} threads", o.expert_threads) } else { String::new() },
            o.threads,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "{:<14} {:>6} {:>7} {:>7} {:>17} {:>13} {:>7} {:>7} {:>9} {:>8} {:>8} {:>8}",
            "bot",
            "seats",
            "wins",
            "rate",
            "95% CI (Wilson)",
            "mean rank",
            "points",
            "score",
            "decisions",
            "mean ms",
            "p99 ms",
            "max ms"
        )?;
        for b in &self.bots {
            let (lo, hi) = b.wilson();
            writeln!(
                f,
                "{:<14} {:>6} {:>7.1} {:>6.1}% {:>7.1}% – {:>5.1}% {:>6.2} ± {:<4.2} {:>7.3} {:>7.1} {:>9} {:>8.2} {:>8.2} {:>8.2}",
                b.name,
                b.seats,
                b.wins,
                100.0 * b.win_rate(),
                100.0 * lo,
                100.0 * hi,
                b.mean_rank(),
                b.rank_half_width(),
                b.mean_rank_points(),
                b.mean_score,
                b.decisions,
                b.mean_ms,
                b.p99_ms,
                b.max_ms
            )?;
        }
        if o.players > 2 {
            for b in &self.bots {
                let shares: Vec<String> = b
                    .places
                    .iter()
                    .enumerate()
                    .map(|(i, n)| {
                        format!(
                            "{} {:.1}%",
                            ordinal(i + 1),
                            100.0 * n / b.seats.max(1) as f64
                        )
                    })
                    .collect();
                writeln!(f, "{}: places {}", b.name, shares.join(", "))?;
            }
        }
        if let Some(steal) = self.steal {
            writeln!(
                f,
                "steal time over the run (the host kept the cores from it), all cores: {:.1} s",
                steal.as_secs_f64()
            )?;
        }
        if let Some(limit) = o.budget.time {
            for b in self
                .bots
                .iter()
                .filter(|b| b.name.starts_with("mcts") || b.name.starts_with("expert"))
            {
                writeln!(
                    f,
                    "{}: {} of {} decisions over {} ms (at most {:.2} ms); less the time waiting for a core, {} (at most {:.2} ms); by the time on a core, {} (at most {:.2} ms)",
                    b.name,
                    b.over_limit,
                    b.decisions,
                    limit.as_millis(),
                    b.max_ms,
                    b.over_limit_running,
                    b.max_running_ms,
                    b.over_limit_ran,
                    b.max_ran_ms
                )?;
            }
        }
        Ok(())
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ...
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// What one game gave each of its seats.
struct SeatResult {
    bot: usize,
    win: f64,
    /// The first place covered (0 is first) and the players tied for it.
    place: usize,
    tied: usize,
    score: i32,
    times: Vec<f64>,
    /// The same less the time the thread waited for a core.
    running: Vec<f64>,
    /// The time the thread was on a core.
    ran: Vec<f64>,
}

impl SeatResult {
    /// The place (1 is first), tied players sharing the places they cover.
    fn rank(&self) -> f64 {
        self.place as f64 + 1.0 + (self.tied as f64 - 1.0) / 2.0
    }
}

/// What one game gave its seats (and the features' and odds' rows when asked), or why it
/// could not be played.
type GameResult = Result<(Vec<SeatResult>, Vec<String>, Vec<String>), String>;

/// A seed mixed from several numbers (SplitMix64 steps).
fn mix(parts: &[u64]) -> u64 {
    let mut r = Rng::new(0x7e11_ab07);
    let mut x = 0;
    for p in parts {
        r = Rng::new(r.next_u64() ^ *p);
        x = r.next_u64();
    }
    x
}

/// The bot of one seat.
fn seat_bot(o: &Options, entrant: Entrant, seed: u64) -> Box<dyn Bot> {
    let budget = Budget {
        playouts: entrant.playouts.unwrap_or(o.budget.playouts),
        ..o.budget
    };
    match entrant.level {
        Level::Mcts => {
            let mut settings = Settings::new(budget);
            settings.search = o.search.unwrap_or(settings.search);
            settings.eval = entrant.eval.unwrap_or(settings.eval);
            settings.rollout_margin = entrant.margin.unwrap_or(settings.rollout_margin);
            Box::new(MctsBot::with_settings(seed, settings))
        }
        Level::Expert => {
            let mut settings = ExpertSettings {
                threads: o.expert_threads,
                ..ExpertSettings::new(budget)
            };
            settings.search.eval = entrant.eval.unwrap_or(settings.search.eval);
            settings.search.rollout_margin =
                entrant.margin.unwrap_or(settings.search.rollout_margin);
            settings.search.others_rollout_margin = o
                .expert_others_margin
                .unwrap_or(settings.search.others_rollout_margin);
            settings.search.others_reward = o
                .expert_others_reward
                .unwrap_or(settings.search.others_reward);
            settings.search.tile_keyed = o.expert_tile_keyed.unwrap_or(settings.search.tile_keyed);
            settings.search.rollout_rounds =
                o.expert_rounds.unwrap_or(settings.search.rollout_rounds);
            if let Some(rounds) = o.expert_rounds_more {
                settings.rollout_rounds_more = rounds;
                settings.rollout_rounds_more_unhurried = rounds;
            }
            settings.root_options_more =
                o.expert_options_more.unwrap_or(settings.root_options_more);
            settings.search.rollout_evaluations = o
                .expert_evaluations
                .unwrap_or(settings.search.rollout_evaluations);
            settings.race = o.expert_race.unwrap_or(settings.race);
            settings.search.rollout_temperature = o
                .expert_temperature
                .unwrap_or(settings.search.rollout_temperature);
            settings.search.reward_scale = o
                .expert_reward_scale
                .unwrap_or(settings.search.reward_scale);
            settings.search.final_reward_scale = o
                .expert_final_scale
                .unwrap_or(settings.search.final_reward_scale);
            settings.endgame_rounds = o.expert_endgame_rounds.unwrap_or(settings.endgame_rounds);
            settings.stay = o.expert_stay.unwrap_or(settings.stay);
            settings.search.widening = o.expert_widening.unwrap_or(settings.search.widening);
            settings.extra_tiles = o.expert_extra_tiles.unwrap_or(settings.extra_tiles);
            settings.search.exploration =
                o.expert_exploration.unwrap_or(settings.search.exploration);
            settings.search.judged = o.expert_judged.unwrap_or(settings.search.judged);
            Box::new(ExpertBot::with_settings(seed, settings))
        }
        Level::Greedy => Box::new(
            GreedyBot::with_eval(seed, entrant.eval.unwrap_or(Eval::Hand))
                .maximising(entrant.margin.unwrap_or_default()),
        ),
        level => level.bot(seed, budget),
    }
}

/// Plays game `g`; `Err` when the set-up is refused or a bot fails.
fn play_game(o: &Options, g: usize) -> GameResult {
    let config = GameConfig {
        players: o.players,
        expansions: o.expansions.clone(),
        tile_order: None,
        seed: mix(&[o.seed, g as u64]),
        rules: Default::default(),
    };
    let (mut game, _) = Game::new(&config).map_err(|e| e.to_string())?;
    let seat_bots: Vec<usize> = (0..o.players as usize)
        .map(|s| (s + g) % o.bots.len())
        .collect();
    let mut bots: Vec<_> = seat_bots
        .iter()
        .enumerate()
        .map(|(s, b)| seat_bot(o, o.bots[*b], mix(&[o.seed, g as u64, s as u64, 1])))
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); o.players as usize];
    let mut running: Vec<Vec<f64>> = vec![Vec::new(); o.players as usize];
    let mut ran: Vec<Vec<f64>> = vec![Vec::new(); o.players as usize];
    // (stage, player, score now, features) at each tile placement
    let mut seen: Vec<(f64, usize, i32, [f64; FEATURES])> = Vec::new();
    // (tiles left, open feature) at each tile placement
    let mut open: Vec<(usize, OpenFeature)> = Vec::new();
    while let Some(p) = game.pending() {
        let seat = p.player as usize;
        if o.odds.is_some() && p.phase == Phase::PlaceTile {
            let left = game.tiles_left();
            open.extend(open_features(&game).into_iter().map(|f| (left, f)));
        }
        if o.features.is_some() && p.phase == Phase::PlaceTile {
            let stage = crate::eval::stage(&game);
            for (q, x) in crate::eval::features(&game).into_iter().enumerate() {
                seen.push((stage, q, game.players()[q].score, x));
            }
        }
        let view = game.seat_view(p.player);
        let several = view.game().legal_actions().len() > 1;
        let before = thread_ns();
        let started = Instant::now();
        let action = bots[seat]
            .decide(&view)
            .ok_or_else(|| format!("game {g}: seat {seat} found nothing to decide"))?;
        if several {
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            let (on_core, waited) = thread_ns().zip(before).map_or((None, 0), |(b, a)| {
                (
                    Some(b.ran.saturating_sub(a.ran)),
                    b.waited.saturating_sub(a.waited),
                )
            });
            times[seat].push(ms);
            running[seat].push((ms - waited as f64 / 1e6).max(0.0));
            // elsewhere than Linux, nothing is taken off
            ran[seat].push(on_core.map_or(ms, |ns| ns as f64 / 1e6));
        }
        game.play(p.player, &action)
            .map_err(|e| format!("game {g}: seat {seat} chose {action:?}: {e}"))?;
    }
    let rows = seen
        .into_iter()
        .map(|(stage, q, score, x)| {
            let x: Vec<String> = x.iter().map(|v| format!("{v:.3}")).collect();
            format!(
                "{g},{},{q},{stage:.4},{score},{},{}",
                o.players,
                x.join(","),
                game.players()[q].score
            )
        })
        .collect();
    let odds_rows = open
        .into_iter()
        .map(|(left, f)| {
            let kind = if f.cloister { "cloister" } else { "city" };
            let outcome = open_feature_outcome(&game, &f);
            format!("{g},{},{left},{kind},{},{outcome}", o.players, f.open)
        })
        .collect();
    let ranking = game.ranking();
    let seats = seat_bots
        .iter()
        .enumerate()
        .map(|(s, b)| {
            let rank = ranking
                .iter()
                .find(|r| r.player as usize == s)
                .map_or(o.players, |r| r.rank);
            let tied = ranking.iter().filter(|r| r.rank == rank).count().max(1);
            SeatResult {
                bot: *b,
                win: if rank == 1 { 1.0 / tied as f64 } else { 0.0 },
                place: usize::from(rank.max(1)) - 1,
                tied,
                score: game.players()[s].score,
                times: std::mem::take(&mut times[s]),
                running: std::mem::take(&mut running[s]),
                ran: std::mem::take(&mut ran[s]),
            }
        })
        .collect();
    Ok((seats, rows, odds_rows))
}

/// Plays the arena's games on `options.threads` threads and reports (a round robin:
/// see [`round_robin`]).
pub fn run(options: &Options) -> Result<Report, String> {
    let started = Instant::now();
    let steal_before = steal_time();
    let results: Mutex<Vec<Option<GameResult>>> =
        Mutex::new((0..options.games).map(|_| None).collect());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..options.threads.max(1) {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= options.games {
                    break;
                }
                let r = play_game(options, g);
                if let Ok(mut all) = results.lock() {
                    all[g] = Some(r);
                }
            });
        }
    });
    let results = results.into_inner().map_err(|e| e.to_string())?;
    // one row per distinct bot: the same level and budget listed twice share it
    let mut rows: Vec<Entrant> = Vec::new();
    for e in &options.bots {
        if !rows.contains(e) {
            rows.push(*e);
        }
    }
    let row_of: Vec<usize> = options
        .bots
        .iter()
        .map(|e| rows.iter().position(|r| r == e).unwrap_or(0))
        .collect();
    let mut bots: Vec<BotReport> = rows
        .iter()
        .map(|e| BotReport {
            name: e.label(),
            places: vec![0.0; usize::from(options.players)],
            ..Default::default()
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); bots.len()];
    let mut running: Vec<Vec<f64>> = vec![Vec::new(); bots.len()];
    let mut ran: Vec<Vec<f64>> = vec![Vec::new(); bots.len()];
    let mut scores = vec![0i64; bots.len()];
    let last = f64::from(options.players.max(2)) - 1.0;
    let mut csv = String::from(
        "game,players,player,stage,score,roads,cities,monasteries,fields,other,city_gain,cloister_gain,field_open,supply,one,final\n",
    );
    let mut odds_csv = String::from("game,players,tiles_left,kind,open,outcome\n");
    let mut results_csv = String::from("game,seat,bot,rank,tied,score\n");
    for (g, r) in results.into_iter().enumerate() {
        let (seats, rows, odds_rows) = r.ok_or("a game was not played")??;
        for row in rows {
            csv += &row;
            csv.push('\n');
        }
        for row in odds_rows {
            odds_csv += &row;
            odds_csv.push('\n');
        }
        for (seat, s) in seats.into_iter().enumerate() {
            let row = row_of[s.bot];
            results_csv += &format!(
                "{g},{seat},{},{},{},{}\n",
                bots[row].name,
                s.rank(),
                s.tied,
                s.score
            );
            let b = &mut bots[row];
            b.seats += 1;
            b.wins += s.win;
            let rank = s.rank();
            b.rank_sum += rank;
            b.rank_squares += rank * rank;
            b.rank_points += (last + 1.0 - rank) / last;
            for p in b.places.iter_mut().skip(s.place).take(s.tied) {
                *p += 1.0 / s.tied as f64;
            }
            scores[row] += i64::from(s.score);
            times[row].extend(s.times);
            running[row].extend(s.running);
            ran[row].extend(s.ran);
        }
    }
    let limit = options.budget.time.map(|t| t.as_secs_f64() * 1000.0);
    for (b, (t, score)) in bots.iter_mut().zip(times.iter_mut().zip(scores)) {
        b.mean_score = score as f64 / b.seats.max(1) as f64;
        if let Some(limit) = limit {
            b.over_limit = t.iter().filter(|ms| **ms > limit).count();
        }
        b.decisions = t.len();
        if !t.is_empty() {
            t.sort_by(f64::total_cmp);
            b.mean_ms = t.iter().sum::<f64>() / t.len() as f64;
            b.p99_ms = t[((t.len() as f64 * 0.99).ceil() as usize).clamp(1, t.len()) - 1];
            b.max_ms = t[t.len() - 1];
        }
    }
    for (b, r) in bots.iter_mut().zip(&running) {
        if let Some(limit) = limit {
            b.over_limit_running = r.iter().filter(|ms| **ms > limit).count();
        }
        b.max_running_ms = r.iter().copied().fold(0.0, f64::max);
    }
    for (b, r) in bots.iter_mut().zip(&ran) {
        if let Some(limit) = limit {
            b.over_limit_ran = r.iter().filter(|ms| **ms > limit).count();
        }
        b.max_ran_ms = r.iter().copied().fold(0.0, f64::max);
    }
    if let Some(path) = &options.features {
        std::fs::write(path, csv).map_err(|e| format!("{path}: {e}"))?;
    }
    if let Some(path) = &options.odds {
        std::fs::write(path, odds_csv).map_err(|e| format!("{path}: {e}"))?;
    }
    if let Some(path) = &options.results {
        std::fs::write(path, results_csv).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(Report {
        options: options.clone(),
        bots,
        elapsed: started.elapsed(),
        steal: steal_before
            .zip(steal_time())
            .map(|(a, b)| b.saturating_sub(a)),
    })
}

/// The steal time in `/proc/stat`'s text, in clock ticks: the eighth number of its `cpu`
/// line (all cores together).
#[cfg_attr(not(target_os = "linux"), allow(dead_code))]
fn steal_ticks(stat: &str) -> Option<u64> {
    let line = stat.lines().find(|l| l.starts_with("cpu "))?;
    line.split_whitespace().nth(8)?.parse().ok()
}

/// The machine's steal time since it started, summed over its cores.
#[cfg(target_os = "linux")]
fn steal_time() -> Option<Duration> {
    let ticks = steal_ticks(&std::fs::read_to_string("/proc/stat").ok()?)?;
    let per_second = rustix::param::clock_ticks_per_second().max(1);
    Some(Duration::from_secs_f64(ticks as f64 / per_second as f64))
}

#[cfg(not(target_os = "linux"))]
fn steal_time() -> Option<Duration> {
    None
}

/// The calling thread's times since it started, in nanoseconds.
#[derive(Clone, Copy)]
struct ThreadTimes {
    /// On a core (without the steal time, where the kernel accounts for it).
    ran: u64,
    /// Waiting for a core.
    waited: u64,
}

/// The calling thread's times, when the system tells: on a core by its CPU-time clock
/// (exact to the call, where `/proc/thread-self/schedstat`'s first field lags by up to a
/// scheduler tick), waiting for a core by that file's second field.
#[cfg(target_os = "linux")]
fn thread_ns() -> Option<ThreadTimes> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let waited = s.split_whitespace().nth(1)?.parse().ok()?;
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    let ran = u64::try_from(t.tv_sec).ok()? * 1_000_000_000 + u64::try_from(t.tv_nsec).ok()?;
    Some(ThreadTimes { ran, waited })
}

#[cfg(not(target_os = "linux"))]
fn thread_ns() -> Option<ThreadTimes> {
    None
}

/// Every pair of the listed bots plays the arena's games (the same seeds for every pair).
pub fn round_robin(options: &Options) -> Result<Vec<Report>, String> {
    let mut reports = Vec::new();
    for i in 0..options.bots.len() {
        for j in i + 1..options.bots.len() {
            reports.push(run(&Options {
                bots: vec![options.bots[i], options.bots[j]],
                round_robin: false,
                ..options.clone()
            })?);
        }
    }
    Ok(reports)
}

/// A round robin's table: each bot's rank points against each other (row against
/// column), and its mean over its opponents.
pub fn round_robin_table(bots: &[Entrant], reports: &[Report]) -> String {
    let labels: Vec<String> = bots.iter().map(Entrant::label).collect();
    let mut points = vec![vec![None; bots.len()]; bots.len()];
    let pairs = (0..bots.len()).flat_map(|i| (i + 1..bots.len()).map(move |j| (i, j)));
    for ((i, j), r) in pairs.zip(reports) {
        points[i][j] = r.bots.first().map(BotReport::mean_rank_points);
        points[j][i] = r.bots.get(1).map(BotReport::mean_rank_points);
    }
    let mut out = format!("{:<12}", "rank points");
    for l in &labels {
        out += &format!(" {l:>12}");
    }
    out += &format!(" {:>12}\n", "mean");
    for (i, l) in labels.iter().enumerate() {
        out += &format!("{l:<12}");
        let mut sum = 0.0;
        for p in &points[i] {
            match p {
                Some(x) => {
                    sum += x;
                    out += &format!(" {x:>12.3}");
                }
                None => out += &format!(" {:>12}", "–"),
            }
        }
        out += &format!(" {:>12.3}\n", sum / (bots.len() - 1).max(1) as f64);
    }
    out
}

/// The command: reads the arguments, runs, returns the printed report.
pub fn main_with(args: &[String]) -> Result<String, String> {
    let options = Options::parse(args)?;
    if options.round_robin {
        let reports = round_robin(&options)?;
        let mut out: String = reports.iter().map(|r| format!("{r}\n")).collect();
        out += &round_robin_table(&options.bots, &reports);
        return Ok(out);
    }
    run(&options).map(|r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Margin;
    use crate::mcts::{Judged, Reward};

    #[test]
    fn wilson_interval_of_known_proportions() {
        let (lo, hi) = wilson(0.5, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(1.0, 400);
        assert!(lo > 0.99 && hi == 1.0, "{lo} {hi}");
    }

    #[test]
    fn the_steal_time_is_the_eighth_number_of_the_cpu_line() {
        let stat = "cpu  380830 2481 50812 151502 2120 0 1350 116 0 0\n\
                    cpu0 190415 1240 25406 75751 1060 0 675 58 0 0\n";
        assert_eq!(steal_ticks(stat), Some(116));
        // a kernel too old to count it, or no `cpu` line
        assert_eq!(steal_ticks("cpu  1 2 3 4 5 6 7\n"), None);
        assert_eq!(steal_ticks("intr 5\n"), None);
    }

    #[test]
    fn options_are_read_from_the_command_line() {
        let args: Vec<String> = "--bots greedy,random --games 4 --players 3 --expansions all --seed 9 --playouts 50 --ms 20 --threads 2"
            .split(' ')
            .map(String::from)
            .collect();
        let o = Options::parse(&args).expect("valid");
        assert_eq!(o.bots, vec![Level::Greedy.into(), Level::Random.into()]);
        assert_eq!((o.games, o.players, o.seed, o.threads), (4, 3, 9, 2));
        assert_eq!(o.budget.playouts, 50);
        assert_eq!(o.budget.time, Some(Duration::from_millis(20)));
        assert!(o.expansions.len() > 5);
        let results = Options::parse(&["--results".into(), "r.csv".into()]).expect("valid");
        assert_eq!(results.results.as_deref(), Some("r.csv"));
        assert!(Options::parse(&["--results".into()]).is_err());
        assert!(Options::parse(&["--bots".into(), "nobody".into()]).is_err());
        assert!(Options::parse(&["--games".into()]).is_err());
        let stay = |v: &str| Options::parse(&["--expert-stay".into(), v.into()]);
        assert_eq!(stay("1.5").expect("valid").expert_stay, Some(1.5));
        let widening = |v: &str| Options::parse(&["--expert-widening".into(), v.into()]);
        assert_eq!(widening("1").expect("valid").expert_widening, Some(1.0));
        let extra = |v: &str| Options::parse(&["--expert-extra-tiles".into(), v.into()]);
        assert_eq!(extra("1").expect("valid").expert_extra_tiles, Some(1));
        assert_eq!(extra("-1").expect("valid").expert_extra_tiles, Some(-1));
        assert!(extra("101").is_err() && extra("one").is_err() && extra("1.5").is_err());
        let exploration = |v: &str| Options::parse(&["--expert-exploration".into(), v.into()]);
        assert_eq!(
            exploration("0.25").expect("valid").expert_exploration,
            Some(0.25)
        );
        assert!(exploration("-1").is_err() && exploration("NaN").is_err());
        assert!(widening("11").is_err() && widening("-1").is_err());
        for wrong in ["-1", "11", "NaN", "one"] {
            assert!(stay(wrong).is_err(), "{wrong}");
        }
        let judged = |v: &str| Options::parse(&["--expert-judged".into(), v.into()]);
        assert_eq!(
            judged("tiles").expect("valid").expert_judged,
            Some(Judged::TilesAndFigures)
        );
        assert_eq!(
            judged("every").expect("valid").expert_judged,
            Some(Judged::Every)
        );
        assert!(judged("all").is_err());
        let more: Vec<String> =
            "--expert-rounds-more 2 --expert-options-more 4 --expert-evaluations 60"
                .split(' ')
                .map(String::from)
                .collect();
        let o = Options::parse(&more).expect("valid");
        assert_eq!(
            (
                o.expert_rounds_more,
                o.expert_options_more,
                o.expert_evaluations
            ),
            (Some(2), Some(4), Some(60))
        );
        assert!(Options::parse(&["--expert-options-more".into(), "six".into()]).is_err());
        let temperature = |v: &str| Options::parse(&["--expert-temperature".into(), v.into()]);
        assert_eq!(
            temperature("2.5").expect("valid").expert_temperature,
            Some(2.5)
        );
        for wrong in ["-1", "101", "NaN", "warm"] {
            assert!(temperature(wrong).is_err(), "{wrong}");
        }
        for flag in ["--expert-reward-scale", "--expert-final-scale"] {
            let scale = |v: &str| Options::parse(&[flag.into(), v.into()]);
            let o = scale("2.5").expect("valid");
            assert_eq!(
                o.expert_reward_scale.or(o.expert_final_scale),
                Some(2.5),
                "{flag}"
            );
            for wrong in ["0", "0.05", "101", "NaN", "sharp"] {
                assert!(scale(wrong).is_err(), "{flag} {wrong}");
            }
        }
        let margin = |v: &str| Options::parse(&["--expert-others-margin".into(), v.into()]);
        assert_eq!(
            margin("pairwise").expect("valid").expert_others_margin,
            Some(Margin::Pairwise)
        );
        assert_eq!(
            margin("own").expect("valid").expert_others_margin,
            Some(Margin::Own)
        );
        assert!(margin("worst").is_err());
        let reward = |v: &str| Options::parse(&["--expert-others-reward".into(), v.into()]);
        assert_eq!(
            reward("best").expect("valid").expert_others_reward,
            Some(Reward::Best)
        );
        assert_eq!(
            reward("own").expect("valid").expert_others_reward,
            Some(Reward::Own)
        );
        assert!(reward("mean").is_err());
        let keyed = |v: &str| Options::parse(&["--expert-tile-keyed".into(), v.into()]);
        assert_eq!(keyed("yes").expect("valid").expert_tile_keyed, Some(true));
        assert_eq!(keyed("no").expect("valid").expert_tile_keyed, Some(false));
        assert!(keyed("maybe").is_err());
        let endgame = Options::parse(&["--expert-endgame-rounds".into(), "5".into()]);
        assert_eq!(endgame.expect("valid").expert_endgame_rounds, Some(5));
        let race = |v: &str| Options::parse(&["--expert-race".into(), v.into()]);
        assert_eq!(race("4").expect("valid").expert_race, Some(4.0));
        for wrong in ["0", "21", "NaN", "two"] {
            assert!(race(wrong).is_err(), "{wrong}");
        }
    }

    #[test]
    fn seats_rotate_and_results_do_not_depend_on_threads() {
        let o = Options {
            bots: vec![Level::Greedy.into(), Level::Random.into()],
            games: 4,
            players: 2,
            threads: 1,
            ..Default::default()
        };
        let one = run(&o).expect("runs");
        let two = run(&Options { threads: 2, ..o }).expect("runs");
        assert_eq!(one.bots[0].seats, 4);
        assert_eq!(one.bots[1].seats, 4);
        assert_eq!(one.bots[0].wins + one.bots[1].wins, 4.0);
        assert_eq!(one.bots[0].wins, two.bots[0].wins);
        assert_eq!(one.bots[0].mean_score, two.bots[0].mean_score);
    }

    #[test]
    fn ranks_and_rank_points_are_fair_with_several_players() {
        let o = Options {
            bots: vec![
                Level::Greedy.into(),
                Level::Random.into(),
                Level::Random.into(),
            ],
            games: 3,
            players: 3,
            threads: 2,
            ..Default::default()
        };
        let r = run(&o).expect("runs");
        // the random bot listed twice is one row over its six seats
        assert_eq!(r.bots.len(), 2);
        assert_eq!((r.bots[0].seats, r.bots[1].seats), (3, 6));
        // ranks of a game add up to 1 + 2 + 3, rank points to 1 + 0.5 + 0
        let ranks: f64 = r.bots.iter().map(|b| b.rank_sum).sum();
        let points: f64 = r.bots.iter().map(|b| b.rank_points).sum();
        assert!((ranks - 18.0).abs() < 1e-9, "{ranks}");
        assert!((points - 4.5).abs() < 1e-9, "{points}");
        // each place is taken once a game, ties shared
        for place in 0..3 {
            let n: f64 = r.bots.iter().map(|b| b.places[place]).sum();
            assert!((n - 3.0).abs() < 1e-9, "{place}: {n}");
        }
        for b in &r.bots {
            let seats: f64 = b.places.iter().sum();
            assert!((seats - b.seats as f64).abs() < 1e-9);
            let mean: f64 = b
                .places
                .iter()
                .enumerate()
                .map(|(i, n)| (i + 1) as f64 * n)
                .sum();
            assert!((mean / b.seats as f64 - b.mean_rank()).abs() < 1e-9);
        }
        assert!(r.to_string().contains("places 1st "), "{r}");
        let names: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103].map(ordinal).into();
        assert_eq!(
            names,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd"]
        );
        assert!(r.bots[0].mean_rank() < r.bots[1].mean_rank(), "{r}");
        assert!(r.to_string().contains("mean rank"));
        // no bot names its own playouts: the arena's budget is every bot's
        assert!(!r.to_string().contains("where a bot names none"));
    }

    #[test]
    fn entrants_carry_their_own_budget_and_a_round_robin_plays_every_pair() {
        let e = Entrant::parse("mcts:20").expect("valid");
        assert_eq!((e.level, e.playouts), (Level::Mcts, Some(20)));
        assert_eq!(e.label(), "mcts:20");
        let e = Entrant::parse("greedy/fitted").expect("valid");
        assert_eq!((e.level, e.eval), (Level::Greedy, Some(Eval::Fitted)));
        assert_eq!(e.label(), "greedy/fitted");
        let e = Entrant::parse("expert:50/calibrated").expect("valid");
        assert_eq!(
            (e.level, e.playouts, e.eval),
            (Level::Expert, Some(50), Some(Eval::Calibrated))
        );
        assert_eq!(e.label(), "expert:50/calibrated");
        assert_eq!(e.margin, None);
        let e = Entrant::parse("expert:50/mean/calibrated").expect("valid");
        assert_eq!(
            (e.eval, e.margin),
            (Some(Eval::Calibrated), Some(Margin::Mean))
        );
        assert_eq!(e.label(), "expert:50/calibrated/mean");
        assert_eq!(Entrant::parse(&e.label()), Ok(e));
        let e = Entrant::parse("greedy/own").expect("valid");
        assert_eq!(
            (e.margin, e.label()),
            (Some(Margin::Own), "greedy/own".into())
        );
        assert!(Entrant::parse("greedy/best").is_err());
        assert!(Entrant::parse("greedy/mean/").is_err());
        assert!(Entrant::parse("mcts:x").is_err());
        assert!(Entrant::parse("deep:3").is_err());
        let args: Vec<String> = "--bots random,greedy,random:5 --games 2 --round-robin"
            .split(' ')
            .map(String::from)
            .collect();
        let o = Options::parse(&args).expect("valid");
        assert!(o.round_robin);
        let reports = round_robin(&o).expect("runs");
        assert_eq!(reports.len(), 3);
        let table = round_robin_table(&o.bots, &reports);
        assert_eq!(table.lines().count(), 4, "{table}");
        let out = main_with(&args).expect("runs");
        assert!(out.contains("rank points"));
        // random:5 names its own playouts: the header says the arena's are a default
        assert!(
            out.contains("budget: 300 playouts where a bot names none"),
            "{out}"
        );
    }

    #[test]
    fn the_odds_file_lists_every_open_feature_with_its_outcome() {
        let path = std::env::temp_dir().join(format!("arena-odds-{}.csv", std::process::id()));
        let o = Options {
            bots: vec![Level::Greedy.into()],
            games: 2,
            players: 3,
            odds: Some(path.to_string_lossy().into_owned()),
            ..Default::default()
        };
        run(&o).expect("runs");
        let csv = std::fs::read_to_string(&path).expect("written");
        let _ = std::fs::remove_file(&path);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("game,players,tiles_left,kind,open,outcome")
        );
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert!(rows.len() > 20, "{csv}");
        let (mut cities, mut cloisters) = (0, 0);
        for r in &rows {
            assert_eq!(r.len(), 6, "{r:?}");
            assert!(r[0] == "0" || r[0] == "1");
            assert_eq!(r[1], "3");
            let open: u32 = r[4].parse().expect("a number");
            let outcome: u32 = r[5].parse().expect("a number");
            assert!(open > 0);
            match r[3] {
                "city" => {
                    cities += 1;
                    assert!(outcome <= 1);
                }
                "cloister" => {
                    cloisters += 1;
                    assert!(open <= 8 && outcome <= open);
                }
                other => panic!("kind {other}"),
            }
        }
        assert!(cities > 0 && cloisters > 0, "{cities} {cloisters}");
    }

    #[test]
    fn the_results_file_gives_every_seat_of_every_game_as_the_report_counts_them() {
        let path = std::env::temp_dir().join(format!("arena-results-{}.csv", std::process::id()));
        let o = Options {
            bots: vec![Level::Greedy.into(), Level::Random.into()],
            games: 4,
            players: 3,
            results: Some(path.to_string_lossy().into_owned()),
            ..Default::default()
        };
        let report = run(&o).expect("runs");
        let csv = std::fs::read_to_string(&path).expect("written");
        let _ = std::fs::remove_file(&path);
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("game,seat,bot,rank,tied,score"));
        let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
        assert_eq!(rows.len(), 12, "{csv}");
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r.len(), 6, "{r:?}");
            assert_eq!(r[0], (i / 3).to_string());
            assert_eq!(r[1], (i % 3).to_string());
            // the seats rotate through the listed bots, game by game
            let bot = ["greedy", "random"][(i % 3 + i / 3) % 2];
            assert_eq!(r[2], bot);
        }
        // every game's places cover 1 to 3, tied players sharing them
        for game in rows.chunks(3) {
            let places: f64 = game
                .iter()
                .map(|r| r[3].parse::<f64>().expect("a place"))
                .sum();
            assert!((places - 6.0).abs() < 1e-9, "{game:?}");
        }
        for b in &report.bots {
            let (mut sum, mut seats, mut score) = (0.0, 0, 0i64);
            for r in rows.iter().filter(|r| r[2] == b.name) {
                sum += r[3].parse::<f64>().expect("a place");
                assert!((1..=3).contains(&r[4].parse::<u32>().expect("a count")));
                score += r[5].parse::<i64>().expect("a score");
                seats += 1;
            }
            assert_eq!(seats, b.seats);
            assert!((sum / seats as f64 - b.mean_rank()).abs() < 1e-9);
            assert!((score as f64 / seats as f64 - b.mean_score).abs() < 1e-9);
        }
    }
}
