//! The arena: bots play each other for many games, and a report gives each bot's win
//! rate with a 95% confidence interval (Wilson) and its time per decision.
//!
//! Game `g` (from 0) seats bot `(s + g) mod B` in seat `s` (B bots), so with two bots and
//! two players every other game swaps the seats. A game's seed and each bot's seed follow
//! from the arena's seed and the game's number alone, so a run gives the same games
//! whatever the number of threads (with a budget in playouts; a time limit is not
//! repeatable). A bot wins a game when it ranks first; bots tied for first share the win
//! (two tied players get half a win each). A bot's win rate is its wins over the seats it
//! played. Time per decision counts the decisions where the bot had more than one option.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tilepost_engine::rng::Rng;
use tilepost_engine::{Expansion, Game, GameConfig};

use crate::mcts::{MctsBot, Search, Settings};
use crate::{Bot, Budget, Level};

/// What the arena plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub bots: Vec<Level>,
    pub games: usize,
    pub players: u8,
    pub expansions: Vec<Expansion>,
    pub seed: u64,
    pub budget: Budget,
    /// The `mcts` search (`None`: the default).
    pub search: Option<Search>,
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bots: vec![Level::Mcts, Level::Greedy],
            games: 100,
            players: 2,
            expansions: Vec::new(),
            seed: 1,
            budget: Budget::default(),
            search: None,
            threads: 1,
        }
    }
}

/// The command line's synopsis.
pub const USAGE: &str = "arena [--bots mcts,greedy] [--games N] [--players P] \
[--expansions <id,id,...|all|none>] [--seed S] [--playouts K] [--ms T] [--search tree|paired] [--threads N]";

/// The command line's flags, each with its default.
pub const FLAGS: &str = "\
Flags:
  --bots LEVEL,LEVEL,...   the bots, seated in turn (random, greedy, mcts) [default: mcts,greedy]
  --games N                games to play [default: 100]
  --players P              players per game [default: 2]
  --expansions LIST        expansion ids separated by commas, `all` or `none` [default: none]
  --seed S                 the arena's seed: the same seed plays the same games [default: 1]
  --playouts K             sampled futures per decision of an mcts bot [default: 300]
  --ms T                   time limit per decision of an mcts bot, in milliseconds [default: none]
  --search tree|paired     the mcts search: a shared tree, or flat Monte Carlo [default: tree]
  --threads N              games played at once [default: 1]
  -h, --help               print this help";

/// The whole help: synopsis and flags.
pub fn help() -> String {
    format!("usage: tilepost {USAGE}\n\n{FLAGS}\n")
}

impl Options {
    /// Reads the command line's arguments (without the program's name).
    pub fn parse(args: &[String]) -> Result<Options, String> {
        let mut o = Options::default();
        let mut it = args.iter();
        while let Some(flag) = it.next() {
            let mut value = || {
                it.next()
                    .map(String::as_str)
                    .ok_or_else(|| format!("{flag} needs a value"))
            };
            let number = |s: &str| -> Result<u64, String> {
                s.parse::<u64>()
                    .map_err(|_| format!("{flag}: {s} is not a number"))
            };
            match flag.as_str() {
                "--bots" => {
                    o.bots = value()?
                        .split(',')
                        .map(|b| Level::from_name(b).ok_or_else(|| format!("unknown bot {b}")))
                        .collect::<Result<_, _>>()?
                }
                "--games" => o.games = number(value()?)? as usize,
                "--players" => o.players = u8::try_from(number(value()?)?).unwrap_or(u8::MAX),
                "--expansions" => o.expansions = expansions(value()?)?,
                "--seed" => o.seed = number(value()?)?,
                "--playouts" => {
                    o.budget.playouts = u32::try_from(number(value()?)?).unwrap_or(u32::MAX)
                }
                "--ms" => o.budget.time = Some(Duration::from_millis(number(value()?)?)),
                "--search" => {
                    o.search = Some(match value()? {
                        "tree" => Search::Tree,
                        "paired" => Search::Paired,
                        other => return Err(format!("unknown search {other}")),
                    })
                }
                "--threads" => o.threads = number(value()?)?.max(1) as usize,
                "-h" | "--help" => return Err(help()),
                other => return Err(format!("unknown argument {other}\n{USAGE}")),
            }
        }
        if o.bots.is_empty() {
            return Err("--bots lists no bot".into());
        }
        if o.games == 0 {
            return Err("--games must be at least 1".into());
        }
        Ok(o)
    }
}

/// `all`, `none` or a comma-separated list of expansion ids.
fn expansions(s: &str) -> Result<Vec<Expansion>, String> {
    match s {
        "none" | "" => Ok(Vec::new()),
        "all" => Ok(Expansion::ALL
            .into_iter()
            .filter(|e| e.is_implemented())
            .collect()),
        list => list
            .split(',')
            .map(|id| Expansion::from_id(id).ok_or_else(|| format!("unknown expansion {id}")))
            .collect(),
    }
}

/// One bot's results.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BotReport {
    pub name: String,
    /// Seats played (games times seats per game).
    pub seats: usize,
    /// Wins, a tie for first shared.
    pub wins: f64,
    pub mean_score: f64,
    pub decisions: usize,
    pub mean_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
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
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = &self.options;
        let exp: Vec<&str> = o.expansions.iter().map(|e| e.id()).collect();
        writeln!(
            f,
            "{} games, {} players, expansions: {}, seed {}, budget: {} playouts{}{}, {} threads, {:.1} s",
            o.games,
            o.players,
            if exp.is_empty() { "none".to_string() } else { exp.join(",") },
            o.seed,
            o.budget.playouts,
            o.budget.time.map_or(String::new(), |t| format!(" or {} ms", t.as_millis())),
            o.search.map_or(String::new(), |s| format!(", {s:?} search")),
            o.threads,
            self.elapsed.as_secs_f64()
        )?;
        writeln!(
            f,
            "{:<10} {:>6} {:>7} {:>7} {:>17} {:>7} {:>9} {:>8} {:>8} {:>8}",
            "bot",
            "seats",
            "wins",
            "rate",
            "95% CI (Wilson)",
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
                "{:<10} {:>6} {:>7.1} {:>6.1}% {:>7.1}% – {:>5.1}% {:>7.1} {:>9} {:>8.2} {:>8.2} {:>8.2}",
                b.name,
                b.seats,
                b.wins,
                100.0 * b.win_rate(),
                100.0 * lo,
                100.0 * hi,
                b.mean_score,
                b.decisions,
                b.mean_ms,
                b.p99_ms,
                b.max_ms
            )?;
        }
        Ok(())
    }
}

/// What one game gave each of its seats.
struct SeatResult {
    bot: usize,
    win: f64,
    score: i32,
    times: Vec<f64>,
}

/// What one game gave its seats, or why it could not be played.
type GameResult = Result<Vec<SeatResult>, String>;

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
    let seat_bot: Vec<usize> = (0..o.players as usize)
        .map(|s| (s + g) % o.bots.len())
        .collect();
    let mut bots: Vec<_> = seat_bot
        .iter()
        .enumerate()
        .map(|(s, b)| {
            let seed = mix(&[o.seed, g as u64, s as u64, 1]);
            match (o.bots[*b], o.search) {
                (Level::Mcts, Some(search)) => Box::new(MctsBot::with_settings(
                    seed,
                    Settings {
                        search,
                        ..Settings::new(o.budget)
                    },
                )) as Box<dyn Bot>,
                (level, _) => level.bot(seed, o.budget),
            }
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); o.players as usize];
    while let Some(p) = game.pending() {
        let seat = p.player as usize;
        let view = game.seat_view(p.player);
        let several = view.game().legal_actions().len() > 1;
        let started = Instant::now();
        let action = bots[seat]
            .decide(&view)
            .ok_or_else(|| format!("game {g}: seat {seat} found nothing to decide"))?;
        if several {
            times[seat].push(started.elapsed().as_secs_f64() * 1000.0);
        }
        game.play(p.player, &action)
            .map_err(|e| format!("game {g}: seat {seat} chose {action:?}: {e}"))?;
    }
    let firsts = game.ranking().iter().filter(|r| r.rank == 1).count().max(1);
    Ok(seat_bot
        .iter()
        .enumerate()
        .map(|(s, b)| {
            let first = game
                .ranking()
                .iter()
                .any(|r| r.player as usize == s && r.rank == 1);
            SeatResult {
                bot: *b,
                win: if first { 1.0 / firsts as f64 } else { 0.0 },
                score: game.players()[s].score,
                times: std::mem::take(&mut times[s]),
            }
        })
        .collect())
}

/// Plays the arena's games on `options.threads` threads and reports.
pub fn run(options: &Options) -> Result<Report, String> {
    let started = Instant::now();
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
    let names: Vec<String> = options
        .bots
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if options.bots.iter().filter(|c| *c == b).count() > 1 {
                format!("{}#{}", b.name(), i + 1)
            } else {
                b.name().to_string()
            }
        })
        .collect();
    let mut bots: Vec<BotReport> = names
        .into_iter()
        .map(|name| BotReport {
            name,
            ..Default::default()
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); bots.len()];
    let mut scores = vec![0i64; bots.len()];
    for r in results {
        let seats = r.ok_or("a game was not played")??;
        for s in seats {
            bots[s.bot].seats += 1;
            bots[s.bot].wins += s.win;
            scores[s.bot] += i64::from(s.score);
            times[s.bot].extend(s.times);
        }
    }
    for (b, (t, score)) in bots.iter_mut().zip(times.iter_mut().zip(scores)) {
        b.mean_score = score as f64 / b.seats.max(1) as f64;
        b.decisions = t.len();
        if !t.is_empty() {
            t.sort_by(f64::total_cmp);
            b.mean_ms = t.iter().sum::<f64>() / t.len() as f64;
            b.p99_ms = t[((t.len() as f64 * 0.99).ceil() as usize).clamp(1, t.len()) - 1];
            b.max_ms = t[t.len() - 1];
        }
    }
    Ok(Report {
        options: options.clone(),
        bots,
        elapsed: started.elapsed(),
    })
}

/// The command: reads the arguments, runs, returns the printed report.
pub fn main_with(args: &[String]) -> Result<String, String> {
    let options = Options::parse(args)?;
    run(&options).map(|r| r.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn options_are_read_from_the_command_line() {
        let args: Vec<String> = "--bots greedy,random --games 4 --players 3 --expansions all --seed 9 --playouts 50 --ms 20 --threads 2"
            .split(' ')
            .map(String::from)
            .collect();
        let o = Options::parse(&args).expect("valid");
        assert_eq!(o.bots, vec![Level::Greedy, Level::Random]);
        assert_eq!((o.games, o.players, o.seed, o.threads), (4, 3, 9, 2));
        assert_eq!(o.budget.playouts, 50);
        assert_eq!(o.budget.time, Some(Duration::from_millis(20)));
        assert!(o.expansions.len() > 5);
        assert!(Options::parse(&["--bots".into(), "nobody".into()]).is_err());
        assert!(Options::parse(&["--games".into()]).is_err());
    }

    #[test]
    fn seats_rotate_and_results_do_not_depend_on_threads() {
        let o = Options {
            bots: vec![Level::Greedy, Level::Random],
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
}
