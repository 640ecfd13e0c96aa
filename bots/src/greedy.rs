//! The `greedy` level: the listed option with the best evaluation (`crate::eval`) right
//! after it, looking on through the player's own next decisions of the same turn part
//! while nothing hidden is revealed (a tile placed is judged with the best figure that
//! can follow it). Ties are broken by the bot's own random numbers.

use tilepost_engine::rng::Rng;
use tilepost_engine::{Action, Game, NoEffects};

use crate::eval::Margin;
use crate::mcts::Eval;
use crate::{own_options, Bot, Clock, SeatView};

/// Own decisions looked through after an option.
const LOOKAHEAD: u8 = 2;
/// Evaluations a greedy decision may spend on looking ahead (expansions can multiply the
/// options of one turn part into the thousands).
pub const EVALUATIONS: usize = 3000;

/// Picks the option with the best evaluation.
pub struct GreedyBot {
    rng: Rng,
    eval: Eval,
    margin: Margin,
}

impl GreedyBot {
    pub fn new(seed: u64) -> GreedyBot {
        GreedyBot::with_eval(seed, Eval::Hand)
    }

    /// A greedy bot judging by `eval` (the level's is `Eval::Hand`).
    pub fn with_eval(seed: u64, eval: Eval) -> GreedyBot {
        GreedyBot {
            rng: Rng::new(seed),
            eval,
            margin: Margin::Best,
        }
    }

    /// The same bot maximising `margin` (the level's is `Margin::Best`).
    pub fn maximising(mut self, margin: Margin) -> GreedyBot {
        self.margin = margin;
        self
    }
}

impl Bot for GreedyBot {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn decide(&mut self, view: &SeatView) -> Option<Action> {
        let (game, mut options) = own_options(view)?;
        if options.len() == 1 {
            return options.pop();
        }
        let values = option_values_within(
            game,
            view.seat(),
            &options,
            EVALUATIONS,
            (self.eval, self.margin),
            None,
        )
        .0;
        let best = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let ties: Vec<usize> = (0..options.len())
            .filter(|i| values[*i] >= best - 1e-9)
            .collect();
        let pick = ties[self.rng.below(ties.len() as u64) as usize];
        Some(options.swap_remove(pick))
    }
}

/// The evaluation (`me`'s margin) after each option of `me`'s pending decision, looking
/// ahead with about `evaluations` evaluations in all (shared evenly by the options; an
/// option whose share cannot cover every next option is followed by the last one listed,
/// which is the `pass` where there is one).
pub fn option_values(game: &Game, me: u8, options: &[Action], evaluations: usize) -> Vec<f64> {
    option_values_by(game, me, options, evaluations, Eval::Hand)
}

/// [`option_values`] judged by `eval`.
pub fn option_values_by(
    game: &Game,
    me: u8,
    options: &[Action],
    evaluations: usize,
    eval: Eval,
) -> Vec<f64> {
    option_values_within(game, me, options, evaluations, (eval, Margin::Best), None).0
}

/// [`option_values_by`] that stops judging options when the clock says the time is up
/// (it is read before each evaluation, in the look ahead too): the options not judged
/// get `f64::NEG_INFINITY`, and the flag tells whether every option was judged. Without a
/// clock, the same values as [`option_values_by`].
pub(crate) fn option_values_within(
    game: &Game,
    me: u8,
    options: &[Action],
    evaluations: usize,
    judge: (Eval, Margin),
    clock: Option<&Clock>,
) -> (Vec<f64>, bool) {
    let share = evaluations / options.len().max(1);
    let mut values = Vec::with_capacity(options.len());
    for a in options {
        match value_after(game, me, a, LOOKAHEAD, share, judge, clock) {
            Some(v) => values.push(v),
            None => {
                values.resize(options.len(), f64::NEG_INFINITY);
                return (values, false);
            }
        }
    }
    (values, true)
}

/// `me`'s margin after `action`, with the best of `me`'s next `depth` decisions of the
/// same turn part (while no tile is drawn), within `share` evaluations; `None` when the
/// clock, read before each evaluation, says the time is up.
fn value_after(
    game: &Game,
    me: u8,
    action: &Action,
    depth: u8,
    share: usize,
    judge: (Eval, Margin),
    clock: Option<&Clock>,
) -> Option<f64> {
    if clock.is_some_and(Clock::up) {
        return None;
    }
    let mut g = game.clone();
    if g.play_into(me, action, &mut NoEffects).is_err() {
        return Some(f64::NEG_INFINITY);
    }
    if depth > 0 && !g.is_over() && g.tiles_left() == game.tiles_left() && g.decider() == me {
        let next = g.legal_actions();
        if share >= next.len() && !next.is_empty() {
            let share = share / next.len();
            let mut best = f64::NEG_INFINITY;
            for a in &next {
                best = best.max(value_after(&g, me, a, depth - 1, share, judge, clock)?);
            }
            return Some(best);
        }
        if let Some(last) = next.last() {
            return value_after(&g, me, last, depth - 1, 0, judge, clock);
        }
    }
    Some(judge.1.of(&judge.0.worth(g), me))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use tilepost_engine::{GameConfig, Phase};

    /// A base game of `players` after `tiles` greedy tile placements, at the next one.
    pub(crate) fn base_game_at(seed: u64, tiles: usize, players: u8) -> Game {
        let (mut game, _) = Game::new(&GameConfig {
            players,
            seed,
            ..Default::default()
        })
        .expect("set-up");
        let mut bot = GreedyBot::new(seed);
        let mut placed = 0;
        while let Some(p) = game.pending() {
            if p.phase == Phase::PlaceTile {
                if placed == tiles {
                    break;
                }
                placed += 1;
            }
            let action = bot.decide(&game.seat_view(p.player)).expect("pending");
            game.play(p.player, &action).expect("listed");
        }
        game
    }
}
