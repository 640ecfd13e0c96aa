//! The arena's command line: the entrants, the options with their defaults, their
//! synopsis and their parsing.

use std::str::FromStr;
use std::time::Duration;

use tilepost_engine::Expansion;

use crate::eval::Margin;
use crate::mcts::{Eval, Judged, Reward, Search};
use crate::{Budget, Level};

/// A bot in the arena: a level, with its own playouts per decision where they differ from
/// the arena's (`mcts:200` on the command line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub level: Level,
    pub playouts: Option<u32>,
    /// The evaluation, where it differs from the level's (`greedy/fitted`, `mcts/hand`).
    pub eval: Option<Eval>,
    /// The margin the greedy rule maximises (greedy: its own; mcts and expert: their
    /// rollouts'), where it differs from the level's (`greedy/mean`).
    pub margin: Option<Margin>,
}

impl From<Level> for Entrant {
    fn from(level: Level) -> Entrant {
        Entrant {
            level,
            playouts: None,
            eval: None,
            margin: None,
        }
    }
}

impl Entrant {
    /// `level` or `level:playouts`, followed by `/hand`, `/fitted`, `/calibrated`,
    /// `/places` (the evaluation) and `/mean` or `/pairwise` (the margin), in any order.
    pub fn parse(s: &str) -> Result<Entrant, String> {
        let mut parts = s.split('/');
        let s = parts.next().unwrap_or_default();
        let (mut eval, mut margin) = (None, None);
        for part in parts {
            match part {
                "hand" => eval = Some(Eval::Hand),
                "fitted" => eval = Some(Eval::Fitted),
                "calibrated" => eval = Some(Eval::Calibrated),
                "places" => eval = Some(Eval::Places),
                "mean" => margin = Some(Margin::Mean),
                "pairwise" => margin = Some(Margin::Pairwise),
                "own" => margin = Some(Margin::Own),
                other => return Err(format!("unknown evaluation or margin {other}")),
            }
        }
        let (name, playouts) = match s.split_once(':') {
            Some((name, k)) => (
                name,
                Some(
                    k.parse::<u32>()
                        .map_err(|_| format!("{s}: {k} is not a number of playouts"))?,
                ),
            ),
            None => (s, None),
        };
        let level = Level::from_name(name).ok_or_else(|| format!("unknown bot {name}"))?;
        Ok(Entrant {
            level,
            playouts,
            eval,
            margin,
        })
    }

    /// The name in the report: the level, its playouts and evaluation when set.
    pub fn label(&self) -> String {
        let mut s = self.level.name().to_string();
        if let Some(k) = self.playouts {
            s += &format!(":{k}");
        }
        match self.eval {
            Some(Eval::Hand) => s += "/hand",
            Some(Eval::Fitted) => s += "/fitted",
            Some(Eval::Calibrated) => s += "/calibrated",
            Some(Eval::Places) => s += "/places",
            None => {}
        }
        match self.margin {
            Some(Margin::Mean) => s += "/mean",
            Some(Margin::Pairwise) => s += "/pairwise",
            Some(Margin::Own) => s += "/own",
            Some(Margin::Best) | None => {}
        }
        s
    }
}

/// What the arena plays.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    pub bots: Vec<Entrant>,
    pub games: usize,
    pub players: u8,
    pub expansions: Vec<Expansion>,
    pub seed: u64,
    pub budget: Budget,
    /// The `mcts` search (`None`: the default).
    pub search: Option<Search>,
    /// Threads of one `expert` decision.
    pub expert_threads: usize,
    /// Rounds of tiles an `expert` playout goes through in a 2-player game (`None`: the
    /// default).
    pub expert_rounds: Option<usize>,
    /// Rounds of tiles an `expert` playout goes through with more than two players,
    /// whatever the time limit (`None`: the default, which depends on it).
    pub expert_rounds_more: Option<usize>,
    /// Root options an `expert` keeps with more than two players (`None`: the default).
    pub expert_options_more: Option<usize>,
    /// Evaluations an `expert` playout's judged decision may spend (`None`: the default;
    /// with expansions, the smaller of this and theirs).
    pub expert_evaluations: Option<usize>,
    /// Standard errors behind the leader that end an `expert` candidate's race (`None`:
    /// the default).
    pub expert_race: Option<f64>,
    /// The temperature of an `expert` rollout's choices, in points (`None`: the default,
    /// the best option).
    pub expert_temperature: Option<f64>,
    /// The points of margin of an `expert` playout's reward scale before the game's end
    /// (`None`: the default).
    pub expert_reward_scale: Option<f64>,
    /// The same at the game's end (`None`: the default).
    pub expert_final_scale: Option<f64>,
    /// Rounds of tiles left from which an `expert`'s playouts go on to the game's end
    /// (`None`: the default).
    pub expert_endgame_rounds: Option<usize>,
    /// The margin an `expert` rollout's greedy rule maximises in the other players'
    /// decisions (`None`: the default).
    pub expert_others_margin: Option<Margin>,
    /// The reward the other players' nodes of an `expert`'s tree choose by (`None`: the
    /// default).
    pub expert_others_reward: Option<Reward>,
    /// Whether an `expert`'s tree keys its nodes by the tile drawn (`None`: the default).
    pub expert_tile_keyed: Option<bool>,
    /// Standard errors by which an `expert` candidate must beat the greedy rule's pick to
    /// replace it (`None`: the default; with expansions, the larger of this and theirs).
    pub expert_stay: Option<f64>,
    /// The progressive widening of an `expert`'s tree below the root (`None`: the
    /// default, as mcts's).
    pub expert_widening: Option<f64>,
    /// The tiles an `expert` playout goes through beyond its rounds, or short of them
    /// (`None`: the default, 0).
    pub expert_extra_tiles: Option<isize>,
    /// The exploration constant of UCB1 in an `expert`'s tree below the root (`None`:
    /// the default, as mcts's).
    pub expert_exploration: Option<f64>,
    /// The decisions of an `expert` playout judged by the greedy rule (`None`: the
    /// default, every one).
    pub expert_judged: Option<Judged>,
    /// Every pair of the listed bots plays `games` games.
    pub round_robin: bool,
    /// A file to write the evaluation's features to, at every tile placement of every
    /// game, with each player's final score (the data the fitted evaluation is fitted on).
    pub features: Option<String>,
    /// A file to write the open cities and cloisters with followers to, at every tile
    /// placement of every game, with what became of each by the end (the data the
    /// evaluation's odds are fitted on).
    pub odds: Option<String>,
    /// A file to write every seat's result to, game by game (for comparisons of two runs
    /// on the same games, and the places' shares).
    pub results: Option<String>,
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            bots: vec![Level::Mcts.into(), Level::Greedy.into()],
            games: 100,
            players: 2,
            expansions: Vec::new(),
            seed: 1,
            budget: Budget::default(),
            search: None,
            expert_threads: 1,
            expert_rounds: None,
            expert_rounds_more: None,
            expert_options_more: None,
            expert_evaluations: None,
            expert_race: None,
            expert_temperature: None,
            expert_reward_scale: None,
            expert_final_scale: None,
            expert_endgame_rounds: None,
            expert_others_margin: None,
            expert_others_reward: None,
            expert_tile_keyed: None,
            expert_stay: None,
            expert_widening: None,
            expert_extra_tiles: None,
            expert_exploration: None,
            expert_judged: None,
            round_robin: false,
            features: None,
            odds: None,
            results: None,
            threads: 1,
        }
    }
}

/// The command line's synopsis.
pub const USAGE: &str = "arena [--bots mcts,greedy] [--games N] [--players P] \
[--expansions <id,id,...|all|none>] [--seed S] [--playouts K] [--ms T] [--search tree|paired] \
[--expert-threads N] [--expert-rounds R] [--expert-rounds-more R] \
[--expert-options-more N] [--expert-evaluations N] [--expert-race S] [--expert-temperature T] \
[--expert-reward-scale S] [--expert-final-scale S] [--expert-endgame-rounds R] \
[--expert-others-margin best|mean|pairwise|own] [--expert-others-reward best|pairwise|own] \
[--expert-tile-keyed yes|no] [--expert-stay S] [--expert-widening W] \
[--expert-extra-tiles N] [--expert-exploration C] [--expert-judged every|tiles] \
[--round-robin] [--features FILE] [--odds FILE] [--results FILE] [--threads N]";

/// The command line's flags, each with its default.
pub const FLAGS: &str = "\
Flags:
  --bots LEVEL,LEVEL,...   the bots, seated in turn (random, greedy, mcts, expert; LEVEL:K
                           gives a bot its own K playouts per decision, LEVEL/hand,
                           LEVEL/fitted, LEVEL/calibrated or LEVEL/places its evaluation,
                           LEVEL/mean, LEVEL/pairwise or LEVEL/own the margin its greedy
                           rule maximises, to the others' mean, pairwise or none (its own
                           worth), not to the best other: greedy's own, mcts's and
                           expert's in their own decisions of a playout)
                           [default: mcts,greedy]
  --games N                games to play [default: 100]
  --players P              players per game [default: 2]
  --expansions LIST        expansion ids separated by commas, `all` or `none` [default: none]
  --seed S                 the arena's seed: the same seed plays the same games [default: 1]
  --playouts K             playouts per decision of an mcts or expert bot [default: 300]
  --ms T                   time limit per decision of an mcts or expert bot, in milliseconds
                           [default: none]
  --search tree|paired     the mcts search: a shared tree, or flat Monte Carlo [default: tree]
  --expert-threads N       threads of one expert decision [default: 1]
  --expert-rounds R        rounds of tiles an expert playout goes through in a 2-player
                           game without expansions other than the River [default: 3]
  --expert-rounds-more R   the same with more than two players, whatever the time limit
                           [default: 1 under a limit shorter than 1 s, else 2]
  --expert-options-more N  root options an expert keeps with more than two players
                           [default: 6]
  --expert-evaluations N   evaluations an expert playout's judged decision may spend
                           [default: 400; with expansions other than the River, at most
                           100]
  --expert-race S          standard errors (0.5 to 20) behind the leader that end an expert
                           candidate's race [default: 2.5]
  --expert-temperature T   the temperature, in points (0 to 100), of an expert rollout's
                           choices: 0 takes the greedy rule's best option, above 0 an
                           option is drawn with weight e^((value - best) / T) [default: 0]
  --expert-reward-scale S  the points of margin (0.1 to 100) that make an expert playout's
                           reward about 0.73 (its logistic's scale) when the playout ends
                           before the game's end [default: 10]
  --expert-final-scale S   the same when the playout ends at the game's end [default: 10]
  --expert-endgame-rounds R
                           rounds of tiles left from which an expert's playouts go on to
                           the game's end [default: 3]
  --expert-others-margin M the margin an expert rollout's greedy rule maximises in the
                           others' decisions: to the best other, to the others' mean,
                           pairwise, or none (the player's own worth) [default: best]
  --expert-others-reward R the reward the other players' nodes of an expert's tree choose
                           by: the logistic of the margin to the best other (as mcts's
                           players), its mean over the others (as the expert's own), or
                           of the player's own gain over the playout, whatever the
                           others' [default: pairwise]
  --expert-tile-keyed yes|no
                           whether a node of an expert's tree below the root stands for an
                           action with the tile drawn when it was chosen (a player's reply
                           to one tile not shared with its reply to another), or for the
                           action whatever the tile [default: no]
  --expert-stay S          standard errors (0 to 10) by which an expert candidate must beat
                           the greedy rule's pick to replace it [default: 0; with
                           expansions other than the River, at least 1]
  --expert-widening W      candidates at a node of an expert's tree below the root: W (0 to
                           10) times the square root of its visits plus one, rounded up,
                           at least one (0: the greedy rule's pick alone) [default: 0.5]
  --expert-extra-tiles N   tiles (-100 to 100) an expert playout goes through beyond its
                           rounds (short of them when negative) before the static
                           evaluation judges it [default: 0: the playout ends after the
                           expert's own decisions on the last tile it draws]
  --expert-exploration C   the exploration constant (0 to 10) of UCB1 in an expert's tree
                           below the root [default: 0.7, as mcts]
  --expert-judged WHICH    the decisions of an expert playout judged by the greedy rule:
                           every one, or tiles and figures only (the others at random, as
                           mcts) [default: every]
  --round-robin            every pair of the listed bots plays --games games
  --features FILE          write the fitted evaluation's features at every tile placement,
                           with the final scores, to FILE (CSV)
  --odds FILE              write the open cities and cloisters with followers at every
                           tile placement, with what became of each, to FILE (CSV)
  --results FILE           write every seat's result, game by game (the game, the seat, the
                           bot, its place, tied players sharing the places they cover, the
                           players tied there, and its score), to FILE (CSV)
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
                        .map(Entrant::parse)
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
                "--expert-threads" => o.expert_threads = number(value()?)?.clamp(1, 64) as usize,
                "--expert-rounds" => {
                    o.expert_rounds = Some(number(value()?)?.clamp(1, 20) as usize)
                }
                "--expert-rounds-more" => {
                    o.expert_rounds_more = Some(number(value()?)?.clamp(1, 20) as usize)
                }
                "--expert-options-more" => {
                    o.expert_options_more = Some(number(value()?)?.clamp(1, 50) as usize)
                }
                "--expert-evaluations" => {
                    o.expert_evaluations = Some(number(value()?)?.clamp(1, 10_000) as usize)
                }
                "--expert-race" => {
                    o.expert_race = Some(within(flag, value()?, 0.5, 20.0, "0.5 to 20")?)
                }
                "--expert-temperature" => {
                    o.expert_temperature = Some(within(flag, value()?, 0.0, 100.0, "0 to 100")?)
                }
                "--expert-reward-scale" => {
                    o.expert_reward_scale = Some(within(flag, value()?, 0.1, 100.0, "0.1 to 100")?)
                }
                "--expert-final-scale" => {
                    o.expert_final_scale = Some(within(flag, value()?, 0.1, 100.0, "0.1 to 100")?)
                }
                "--expert-endgame-rounds" => {
                    o.expert_endgame_rounds = Some(number(value()?)?.clamp(0, 100) as usize)
                }
                "--expert-others-margin" => {
                    o.expert_others_margin = Some(match value()? {
                        "best" => Margin::Best,
                        "mean" => Margin::Mean,
                        "pairwise" => Margin::Pairwise,
                        "own" => Margin::Own,
                        other => {
                            return Err(format!(
                                "{flag} wants best, mean, pairwise or own, not {other}"
                            ))
                        }
                    })
                }
                "--expert-others-reward" => {
                    o.expert_others_reward = Some(match value()? {
                        "best" => Reward::Best,
                        "pairwise" => Reward::Pairwise,
                        "own" => Reward::Own,
                        other => {
                            return Err(format!("{flag} wants best, pairwise or own, not {other}"))
                        }
                    })
                }
                "--expert-tile-keyed" => {
                    o.expert_tile_keyed = Some(match value()? {
                        "yes" => true,
                        "no" => false,
                        other => return Err(format!("{flag} wants yes or no, not {other}")),
                    })
                }
                "--expert-stay" => {
                    o.expert_stay = Some(within(flag, value()?, 0.0, 10.0, "0 to 10")?)
                }
                "--expert-widening" => {
                    o.expert_widening = Some(within(flag, value()?, 0.0, 10.0, "0 to 10")?)
                }
                "--expert-exploration" => {
                    o.expert_exploration = Some(within(flag, value()?, 0.0, 10.0, "0 to 10")?)
                }
                "--expert-extra-tiles" => {
                    o.expert_extra_tiles = Some(within(
                        flag,
                        value()?,
                        -100,
                        100,
                        "a whole number from -100 to 100",
                    )?)
                }
                "--expert-judged" => {
                    o.expert_judged = Some(match value()? {
                        "every" => Judged::Every,
                        "tiles" => Judged::TilesAndFigures,
                        other => {
                            return Err(format!(
                                "--expert-judged wants every or tiles, not {other}"
                            ))
                        }
                    })
                }
                "--round-robin" => o.round_robin = true,
                "--features" => o.features = Some(value()?.to_string()),
                "--odds" => o.odds = Some(value()?.to_string()),
                "--results" => o.results = Some(value()?.to_string()),
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
        if o.round_robin && o.bots.len() < 2 {
            return Err("--round-robin needs two bots at least".into());
        }
        Ok(o)
    }
}

/// `s` read as a number from `lo` to `hi`, or an error naming `flag` and the range.
fn within<T: FromStr + PartialOrd>(
    flag: &str,
    s: &str,
    lo: T,
    hi: T,
    range: &str,
) -> Result<T, String> {
    s.parse::<T>()
        .ok()
        .filter(|x| (lo..=hi).contains(x))
        .ok_or_else(|| format!("{flag} wants {range}, not {s}"))
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
