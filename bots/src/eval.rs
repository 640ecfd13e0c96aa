//! A static evaluation of a game, shared by the `greedy` level and the leaves of `mcts`.
//!
//! A player's *worth* is the score they would have if the game ended now (the engine's
//! final scoring on a copy: roads, cities, monasteries, fields, the expansions' final
//! scoring), plus what their open features may still gain (a city doubles when completed,
//! a monastery fills up) weighted by how likely that is with the tiles left, plus the
//! followers kept in supply (each one can still score while tiles are left). A player's
//! *margin* is their worth minus the best worth among the others.

use tilepost_engine::{Board, FeatureKind, FigureKind, Game};

/// Points a follower in supply is worth early in the game (it fades with the tiles left).
const FOLLOWER_IN_SUPPLY: f64 = 2.0;
/// Followers in supply counted at most.
const SUPPLY_CAP: u8 = 6;

/// Every player's worth (see the module documentation).
pub fn worth(game: &Game) -> Vec<f64> {
    worth_of(game.clone())
}

/// [`worth`] of a game its caller no longer needs: the final scoring runs on the game
/// itself, without a copy.
pub fn worth_of(game: Game) -> Vec<f64> {
    worth_with(game, &HAND)
}

/// [`worth_of`] with the odds of the open features fitted on self-play for the table size
/// ([`calibrated_odds`]) in place of the hand-set ones, in a base game with the standard
/// rules; elsewhere, [`worth_of`].
pub fn calibrated_worth_of(game: Game) -> Vec<f64> {
    match calibrated_odds(&game) {
        Some(odds) => worth_with(game, odds),
        None => worth_of(game),
    }
}

/// How likely an open feature with followers is to gain with `left` tiles left: a city
/// with `open` open sides is completed with odds `left / (left + city × open^city_power)`,
/// and a cloister missing `missing` neighbours gains `missing × left / (left + cloister ×
/// missing^cloister_power)` of them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Odds {
    pub city: f64,
    pub city_power: f64,
    pub cloister: f64,
    pub cloister_power: f64,
}

/// The hand-set odds of [`worth`].
pub const HAND: Odds = Odds {
    city: 10.0,
    city_power: 1.0,
    cloister: 4.0,
    cloister_power: 1.0,
};

/// The odds fitted on the open features of greedy self-play, base game, for 2 to 5
/// players (see `docs/bots.md`, The odds of open features).
pub const CALIBRATED: [Odds; 4] = [
    Odds {
        city: 25.41,
        city_power: 1.168,
        cloister: 25.29,
        cloister_power: -0.504,
    },
    Odds {
        city: 28.49,
        city_power: 1.528,
        cloister: 27.39,
        cloister_power: -0.280,
    },
    Odds {
        city: 31.49,
        city_power: 1.909,
        cloister: 33.53,
        cloister_power: -0.303,
    },
    Odds {
        city: 34.16,
        city_power: 2.128,
        cloister: 38.42,
        cloister_power: -0.281,
    },
];

/// The fitted odds for `game`'s table size, where they hold: a base game with the
/// standard rules ([`fitted_for`]).
pub fn calibrated_odds(game: &Game) -> Option<&'static Odds> {
    if !fitted_for(game) {
        return None;
    }
    CALIBRATED.get(game.player_count().checked_sub(2)? as usize)
}

/// The neighbours still missing around the cloister of segment `seg`.
fn missing_neighbours(board: &Board, seg: u16) -> u32 {
    let pos = board.tiles()[board.seg_tile(seg)].pos;
    8u32.saturating_sub(board.surrounding_tiles(pos))
}

/// `x` to the power `p`, without a call to `powf` for the hand-set odds' power of 1 (the
/// evaluation runs in every playout).
fn power(x: f64, p: f64) -> f64 {
    if p == 1.0 {
        x
    } else {
        x.powf(p)
    }
}

fn worth_with(game: Game, odds: &Odds) -> Vec<f64> {
    // what the open game adds to the final scores, read before they are made on it
    let (supply, gains) = if game.is_over() {
        (Vec::new(), Vec::new())
    } else {
        (supply_worth(&game), open_gains(&game, false, odds))
    };
    let mut v: Vec<f64> = game
        .into_final_scores()
        .into_iter()
        .map(f64::from)
        .collect();
    for (x, s) in v.iter_mut().zip(supply) {
        *x += s;
    }
    for (p, _, gain) in gains {
        if let Some(x) = v.get_mut(p) {
            *x += gain;
        }
    }
    v
}

/// What each player's followers in supply are worth (it fades with the tiles left).
fn supply_worth(game: &Game) -> Vec<f64> {
    let left = game.tiles_left() as f64;
    let players = game.players().len().max(1) as f64;
    let turns_each = left / players;
    let supply_weight = FOLLOWER_IN_SUPPLY * (turns_each / 12.0).min(1.0);
    game.players()
        .iter()
        .map(|st| {
            let followers = st.supply[FigureKind::Follower as usize]
                + 2 * st.supply[FigureKind::BigFollower as usize];
            supply_weight * f64::from(followers.min(SUPPLY_CAP))
        })
        .collect()
}

/// What each player's open cities and cloisters with followers may still gain (a city
/// doubles when completed, a monastery fills up), weighted by how likely that is with the
/// tiles left: `(player, part, gain)` for each majority holder of each feature, the part
/// being [`CITY`] or [`CLOISTER`]; and for each majority holder of a field, the open cities
/// it touches (part [`FIELD`], each a city that may still be completed for the field),
/// when `fields` is asked for.
fn open_gains(game: &Game, fields: bool, odds: &Odds) -> Vec<(usize, usize, f64)> {
    let board = game.board();
    let left = game.tiles_left() as f64;
    let players = game.players().len();
    let mut gains = Vec::new();
    let mut cities = Vec::new();
    // the majority holders of each open feature with followers
    let mut features: Vec<(u16, FeatureKind, [u32; 8])> = Vec::new();
    for f in &board.figures {
        if !f.kind.is_follower() {
            continue;
        }
        let kind = board.seg_kind(f.seg);
        if kind == FeatureKind::Field && !fields {
            continue;
        }
        let root = if kind.is_cloister() {
            f.seg
        } else {
            board.find(f.seg)
        };
        let strength = if f.kind == FigureKind::Mayor {
            board.pennants(root)
        } else {
            f.kind.base_strength()
        };
        match features.iter_mut().find(|x| x.0 == root) {
            Some(x) => x.2[f.owner as usize % 8] += strength,
            None => {
                let mut s = [0u32; 8];
                s[f.owner as usize % 8] = strength;
                features.push((root, kind, s));
            }
        }
    }
    for (root, kind, strength) in features {
        let part = match kind {
            FeatureKind::City => CITY,
            FeatureKind::Field => FIELD,
            _ => CLOISTER,
        };
        let gain = match kind {
            FeatureKind::City if board.open_sides(root) > 0 => {
                let open = f64::from(board.open_sides(root));
                let size = f64::from(board.distinct_tiles(root) + board.pennants(root));
                size * left / (left + odds.city * power(open, odds.city_power))
            }
            FeatureKind::Monastery | FeatureKind::Garden => {
                let missing = f64::from(missing_neighbours(board, root));
                if missing > 0.0 {
                    missing * left / (left + odds.cloister * power(missing, odds.cloister_power))
                } else {
                    0.0
                }
            }
            FeatureKind::Field => {
                board.field_cities(root, &mut cities);
                cities.iter().filter(|c| board.open_sides(**c) > 0).count() as f64
            }
            _ => 0.0,
        };
        let max = strength.iter().copied().max().unwrap_or(0);
        if gain > 0.0 && max > 0 {
            for (p, s) in strength.iter().enumerate().take(players) {
                if *s == max {
                    gains.push((p, part, gain));
                }
            }
        }
    }
    gains
}

/// An open city or cloister with followers at some point of a game, as the odds of
/// [`worth`] see it: the feature (one of its segments), whether it is a cloister, and its
/// open sides (a city) or missing neighbours (a cloister). The data the odds are fitted on
/// (`arena --odds FILE`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenFeature {
    pub seg: u16,
    pub cloister: bool,
    pub open: u32,
}

/// Every open city and cloister with followers in `game`, each once.
pub fn open_features(game: &Game) -> Vec<OpenFeature> {
    let board = game.board();
    let mut found: Vec<(u16, OpenFeature)> = Vec::new();
    for f in &board.figures {
        if !f.kind.is_follower() {
            continue;
        }
        let feature = match board.seg_kind(f.seg) {
            FeatureKind::City => {
                let root = board.find(f.seg);
                let open = board.open_sides(root);
                (open > 0).then_some((
                    root,
                    OpenFeature {
                        seg: f.seg,
                        cloister: false,
                        open,
                    },
                ))
            }
            FeatureKind::Monastery | FeatureKind::Garden => {
                let missing = missing_neighbours(board, f.seg);
                (missing > 0).then_some((
                    f.seg,
                    OpenFeature {
                        seg: f.seg,
                        cloister: true,
                        open: missing,
                    },
                ))
            }
            _ => None,
        };
        if let Some((root, feature)) = feature {
            if !found.iter().any(|(r, _)| *r == root) {
                found.push((root, feature));
            }
        }
    }
    found.into_iter().map(|(_, f)| f).collect()
}

/// What became of `feature` (read from an earlier point of the same game) by the time of
/// `later`: for a city, 1 when it is completed, else 0; for a cloister, the neighbours it
/// gained.
pub fn open_feature_outcome(later: &Game, feature: &OpenFeature) -> u32 {
    let board = later.board();
    if feature.cloister {
        feature
            .open
            .saturating_sub(missing_neighbours(board, feature.seg))
    } else {
        u32::from(board.open_sides(board.find(feature.seg)) == 0)
    }
}

/// The features of the fitted evaluation ([`fitted_worth`]) for each player: what final
/// scoring would add now by part (roads, cities, monasteries, fields, the expansions' parts
/// and the score track), the open cities' and cloisters' possible gains (as in
/// [`worth`]), the open cities touching the fields the player holds, the followers in
/// supply, and 1.
pub const FEATURES: usize = 10;

/// The parts of [`open_gains`], in the order of the features.
const CITY: usize = 0;
const CLOISTER: usize = 1;
const FIELD: usize = 2;

/// The game's stage for the fitted evaluation: each player's turns left, over 36 (the
/// turns of a 2-player base game).
pub fn stage(game: &Game) -> f64 {
    game.tiles_left() as f64 / game.players().len().max(1) as f64 / 36.0
}

/// Whether the fitted weights hold for `game`: a base game with the standard rules.
pub fn fitted_for(game: &Game) -> bool {
    game.expansions().is_empty() && game.house_rules() == tilepost_engine::HouseRules::default()
}

/// Every player's features (see [`FEATURES`]).
pub fn features(game: &Game) -> Vec<[f64; FEATURES]> {
    let ended = tilepost_engine::analysis::scores_if_ended(game);
    let mut x: Vec<[f64; FEATURES]> = ended
        .iter()
        .zip(game.players())
        .map(|(e, st)| {
            let p = &e.parts;
            let other = p.expansions.iter().map(|x| x.points).sum::<i32>() + p.track;
            let followers = st.supply[FigureKind::Follower as usize]
                + 2 * st.supply[FigureKind::BigFollower as usize];
            [
                f64::from(p.roads),
                f64::from(p.cities),
                f64::from(p.monasteries),
                f64::from(p.fields),
                f64::from(other),
                0.0,
                0.0,
                0.0,
                f64::from(followers),
                1.0,
            ]
        })
        .collect();
    for (p, part, gain) in open_gains(game, true, &HAND) {
        if let Some(f) = x.get_mut(p) {
            f[5 + part] += gain;
        }
    }
    x
}

/// The fitted weights: feature `k` counts `w[k][0] + w[k][1] s + w[k][2] s²` at stage `s`
/// (fitted by least squares on self-play positions: see `docs/bots.md`).
const FITTED: [[f64; 3]; FEATURES] = [
    [0.9391, 0.7631, -0.1331],  // roads
    [0.9803, -1.5882, -1.1783], // cities
    [0.9103, 0.3217, 0.0844],   // monasteries
    [0.9597, -0.9989, -0.4393], // fields
    [0.0000, 0.0000, 0.0000],   // the expansions' parts and the track
    [0.7241, 3.3797, 0.0604],   // open cities' gain
    [0.4480, -0.8398, 0.6468],  // open cloisters' gain
    [0.0000, 0.0000, 0.0000],   // open cities by held fields (no weight in this fit)
    [4.3881, 2.0171, -5.1462],  // followers in supply
    [1.8317, 58.9728, 20.9409], // one
];

/// Every player's score now, as numbers.
fn scores(game: &Game) -> Vec<f64> {
    game.players().iter().map(|p| f64::from(p.score)).collect()
}

/// Every player's predicted final score: the score now plus what the fitted weights make
/// of the features; the final scores once the game is over. The weights were fitted on
/// base games with the standard rules: a game with expansions or house rules is judged
/// by the hand-set [`worth`] instead (a weight fitted where a feature never varied, or
/// at stages a base game never reaches, says nothing there).
pub fn fitted_worth(game: &Game) -> Vec<f64> {
    let now = scores(game);
    if game.is_over() {
        return now;
    }
    if !fitted_for(game) {
        return worth(game);
    }
    let s = stage(game).min(1.0);
    features(game)
        .iter()
        .zip(now)
        .map(|(x, score)| {
            score
                + x.iter()
                    .zip(&FITTED)
                    .map(|(v, w)| v * (w[0] + w[1] * s + w[2] * s * s))
                    .sum::<f64>()
        })
        .collect()
}

/// The features of [`places_worth_of`]: those of [`features`] but the constant, and
/// the score now.
const PLACES_FEATURES: usize = FEATURES;

/// The table size [`PLACES`] was fitted for.
const PLACES_PLAYERS: usize = 4;

/// The weights of [`places_worth_of`], in points of the expert's reward (`mcts::REWARD_SCALE`):
/// feature `k` counts `w[k][0] + w[k][1] s + w[k][2] s² + w[k][3] / √(36 s + 1)` at stage
/// `s`, fitted by logistic regression on which of two players ends ahead, over every pair
/// of players at every tile placement of 2,000 4-player base games of greedy self-play
/// (`scripts/fit-places.py`, whose header has the commands).
const PLACES: [[f64; 4]; PLACES_FEATURES] = [
    [0.2774, 0.8711, 1.3635, 0.1519],   // roads
    [0.2243, 0.0226, -0.5865, 0.1707],  // cities
    [0.4060, 0.5188, 0.6650, 0.2505],   // monasteries
    [0.3691, 0.1977, -0.0735, 0.2559],  // fields
    [0.0000, 0.0000, 0.0000, 0.0000],   // the expansions' parts and the track
    [0.3716, 1.3295, 2.7926, 0.6754],   // open cities' gain
    [0.1553, -0.2591, -0.4050, 1.4691], // open cloisters' gain
    [0.4217, 0.0381, -0.2916, 0.3675],  // open cities by held fields
    [0.7496, 0.7133, -2.1946, 0.6095],  // followers in supply
    [0.6012, 1.1762, -0.7432, 0.3950],  // the score now
];

/// The weight `w` of [`PLACES`] gives its feature at stage `s`.
fn place_weight(w: &[f64; 4], s: f64) -> f64 {
    let late = 1.0 / (36.0 * s + 1.0).sqrt();
    w[0] + w[1] * s + w[2] * s * s + w[3] * late
}

/// Whether [`PLACES`] holds for `game`: a base game with the standard rules and
/// [`PLACES_PLAYERS`] players.
pub fn places_for(game: &Game) -> bool {
    fitted_for(game) && game.players().len() == PLACES_PLAYERS
}

/// Every player's standing for the odds of finishing ahead of each other: where
/// [`places_for`] holds, the features weighted by [`PLACES`], so that the logistic of the
/// difference between two players at the expert's reward scale (10 points of difference
/// making 0.73) is the fitted odds of the first ending ahead of the second; the final
/// scores once the game is over; elsewhere the hand-set [`worth_of`].
pub fn places_worth_of(game: Game) -> Vec<f64> {
    if game.is_over() {
        return scores(&game);
    }
    if !places_for(&game) {
        return worth_of(game);
    }
    let s = stage(&game);
    features(&game)
        .iter()
        .zip(game.players())
        .map(|(x, st)| {
            // the features but the constant, then the score now
            x.iter()
                .take(FEATURES - 1)
                .chain(std::iter::once(&f64::from(st.score)))
                .zip(&PLACES)
                .map(|(v, w)| v * place_weight(w, s))
                .sum::<f64>()
        })
        .collect()
}

/// Which margin the greedy rule maximises.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Margin {
    /// The worth minus the best worth among the others ([`margin`]).
    #[default]
    Best,
    /// The worth minus the mean worth of the others ([`mean_margin`]): with more than two
    /// players a point taken from any other counts, not only from the best; with two,
    /// the same as `Best`.
    Mean,
    /// The mean over the others of a logistic of the margin to each, in points: about the
    /// mean margin while the margins are small, saturating at `±PAIRWISE_SCALE` as a
    /// player is far ahead of or behind another (a share of the others passed, as the mean
    /// rank counts).
    Pairwise,
    /// The worth alone, whatever the others': a player who plays for their own points
    /// and not against anyone.
    Own,
}

/// The logistic's scale of [`Margin::Pairwise`], in points.
const PAIRWISE_SCALE: f64 = 10.0;

impl Margin {
    /// `player`'s margin of this kind.
    pub fn of(self, worth: &[f64], player: u8) -> f64 {
        match self {
            Margin::Best => margin(worth, player),
            Margin::Mean => mean_margin(worth, player),
            Margin::Pairwise => pairwise_margin(worth, player),
            Margin::Own => worth.get(usize::from(player)).copied().unwrap_or(0.0),
        }
    }
}

/// `player`'s worth minus the mean worth of the others.
pub fn mean_margin(worth: &[f64], player: u8) -> f64 {
    mean_over_others(worth, player, |d| d)
}

/// [`Margin::Pairwise`]: `player`'s mean over the others of `2 s σ(d / s) − s`, `d` the
/// margin to each and `s` [`PAIRWISE_SCALE`].
fn pairwise_margin(worth: &[f64], player: u8) -> f64 {
    let s = PAIRWISE_SCALE;
    mean_over_others(worth, player, |d| 2.0 * s / (1.0 + (-d / s).exp()) - s)
}

/// The mean over the players other than `player` of `f` of `player`'s margin to each
/// (`f` of `player`'s worth when there is no other).
pub(crate) fn mean_over_others(worth: &[f64], player: u8, f: impl Fn(f64) -> f64) -> f64 {
    let me = worth.get(player as usize).copied().unwrap_or(0.0);
    let (sum, n) = worth
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != player as usize)
        .fold((0.0, 0usize), |(t, n), (_, w)| (t + f(me - w), n + 1));
    if n == 0 {
        f(me)
    } else {
        sum / n as f64
    }
}

/// `player`'s worth minus the best worth among the others.
pub fn margin(worth: &[f64], player: u8) -> f64 {
    let me = worth.get(player as usize).copied().unwrap_or(0.0);
    let best_other = worth
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != player as usize)
        .map(|(_, w)| *w)
        .fold(f64::NEG_INFINITY, f64::max);
    if best_other.is_finite() {
        me - best_other
    } else {
        me
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilepost_engine::GameConfig;

    #[test]
    fn at_the_start_everybody_is_worth_the_same() {
        let (game, _) = Game::new(&GameConfig {
            players: 3,
            seed: 4,
            ..Default::default()
        })
        .expect("set-up");
        let w = worth(&game);
        assert_eq!(w.len(), 3);
        assert!(w.iter().all(|x| *x == w[0] && *x > 0.0), "{w:?}");
        assert_eq!(margin(&w, 1), 0.0);
        assert_eq!(margin(&[5.0, 2.0, 4.0], 0), 1.0);
        assert_eq!(margin(&[5.0, 2.0, 4.0], 1), -3.0);
        assert_eq!(mean_margin(&[5.0, 2.0, 4.0], 1), -2.5);
        assert_eq!(Margin::Mean.of(&[5.0, 2.0, 4.0], 0), 2.0);
        assert_eq!(Margin::Best.of(&[5.0, 2.0, 4.0], 0), 1.0);
        // the own worth, the others' aside
        assert_eq!(Margin::Own.of(&[5.0, 2.0, 4.0], 1), 2.0);
        assert_eq!(Margin::Own.of(&[5.0, 2.0, 40.0], 1), 2.0);
        // two players: the same margin
        for p in [0, 1] {
            assert_eq!(mean_margin(&[7.5, 3.0], p), margin(&[7.5, 3.0], p));
        }
    }

    #[test]
    fn open_features_are_listed_once_and_their_outcome_is_read_later() {
        let game = crate::greedy::tests::base_game_at(7, 20, 4);
        let open = open_features(&game);
        assert!(!open.is_empty());
        let board = game.board();
        for (i, f) in open.iter().enumerate() {
            assert!(f.open > 0, "{f:?}");
            // at the same point nothing has happened to any of them yet
            assert_eq!(open_feature_outcome(&game, f), 0, "{f:?}");
            if !f.cloister {
                let root = board.find(f.seg);
                assert_eq!(board.open_sides(root), f.open);
                assert!(open[i + 1..]
                    .iter()
                    .all(|g| g.cloister || board.find(g.seg) != root));
            }
        }
        let later = crate::greedy::tests::base_game_at(7, 60, 4);
        for f in &open {
            let outcome = open_feature_outcome(&later, f);
            assert!(outcome <= if f.cloister { f.open } else { 1 }, "{f:?}");
        }
    }

    /// A 4-player game with Inns & Cathedrals, at its start.
    fn four_with_an_expansion() -> Game {
        let (game, _) = Game::new(&GameConfig {
            players: 4,
            seed: 3,
            expansions: vec![tilepost_engine::Expansion::InnsCathedrals],
            ..Default::default()
        })
        .expect("set-up");
        game
    }

    #[test]
    fn the_calibrated_odds_hold_in_base_games_only() {
        let game = crate::greedy::tests::base_game_at(3, 30, 4);
        assert_eq!(calibrated_odds(&game), Some(&CALIBRATED[2]));
        assert!(!open_gains(&game, false, &HAND).is_empty());
        // the same features, judged by other odds: the open cities and cloisters count less
        let hand: f64 = open_gains(&game, false, &HAND).iter().map(|g| g.2).sum();
        let fitted: f64 = open_gains(&game, false, &CALIBRATED[2])
            .iter()
            .map(|g| g.2)
            .sum();
        assert!(fitted < hand, "{fitted} {hand}");
        assert_ne!(calibrated_worth_of(game.clone()), worth(&game));
        let with = four_with_an_expansion();
        assert_eq!(calibrated_odds(&with), None);
        assert_eq!(calibrated_worth_of(with.clone()), worth(&with));
    }

    #[test]
    fn the_odds_of_a_place_hold_with_four_players_in_base_games_only() {
        let at = crate::greedy::tests::base_game_at;
        // four players, under way: a standing of its own, one per player
        let game = at(3, 30, 4);
        assert!(places_for(&game));
        let v = places_worth_of(game.clone());
        assert_eq!(v.len(), 4);
        assert!(v.iter().all(|x| x.is_finite()), "{v:?}");
        assert_ne!(v, worth(&game));
        // at the start everybody stands alike; at the end, the final scores
        let start = at(3, 0, 4);
        let v = places_worth_of(start);
        assert!(v.iter().all(|x| *x == v[0]), "{v:?}");
        let over = at(3, 1_000, 4);
        assert!(over.is_over());
        let scores: Vec<f64> = over.players().iter().map(|p| f64::from(p.score)).collect();
        assert_eq!(places_worth_of(over), scores);
        // other table sizes and games with expansions: the hand-set evaluation
        for players in [2, 3, 5] {
            let game = at(3, 20, players);
            assert!(!places_for(&game));
            assert_eq!(places_worth_of(game.clone()), worth(&game));
        }
        let with = four_with_an_expansion();
        assert!(!places_for(&with));
        assert_eq!(places_worth_of(with.clone()), worth(&with));
    }

    #[test]
    fn points_scored_followers_kept_and_open_cities_never_count_against_a_place() {
        // the score now, the followers in supply and the open cities' gain, at every
        // stage a 4-player game passes through (71 tiles left to none)
        for left in 0..=71 {
            let s = left as f64 / 4.0 / 36.0;
            for k in [9, 8, 5] {
                let weight = place_weight(&PLACES[k], s);
                assert!(weight > 0.0, "feature {k}, {left} tiles left: {weight}");
            }
        }
    }
}
