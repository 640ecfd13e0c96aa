//! A static evaluation of a game, shared by the `greedy` level and the leaves of `mcts`.
//!
//! A player's *worth* is the score they would have if the game ended now (the engine's
//! final scoring on a copy: roads, cities, monasteries, fields, the expansions' final
//! scoring), plus what their open features may still gain (a city doubles when completed,
//! a monastery fills up) weighted by how likely that is with the tiles left, plus the
//! followers kept in supply (each one can still score while tiles are left). A player's
//! *margin* is their worth minus the best worth among the others.

use tilepost_engine::{FeatureKind, FigureKind, Game};

/// Points a follower in supply is worth early in the game (it fades with the tiles left).
const FOLLOWER_IN_SUPPLY: f64 = 2.0;
/// Followers in supply counted at most.
const SUPPLY_CAP: u8 = 6;

/// Every player's worth (see the module documentation).
pub fn worth(game: &Game) -> Vec<f64> {
    let mut v: Vec<f64> = game
        .final_scores_now()
        .iter()
        .map(|&s| f64::from(s))
        .collect();
    if game.is_over() {
        return v;
    }
    let left = game.tiles_left() as f64;
    let players = v.len().max(1) as f64;
    let turns_each = left / players;
    let supply_weight = FOLLOWER_IN_SUPPLY * (turns_each / 12.0).min(1.0);
    for (p, st) in game.players().iter().enumerate() {
        let followers = st.supply[FigureKind::Follower as usize]
            + 2 * st.supply[FigureKind::BigFollower as usize];
        v[p] += supply_weight * f64::from(followers.min(SUPPLY_CAP));
    }
    let board = game.board();
    // the majority holders of each open feature with followers
    let mut features: Vec<(u16, FeatureKind, [u32; 8])> = Vec::new();
    for f in &board.figures {
        if !f.kind.is_follower() {
            continue;
        }
        let kind = board.seg_kind(f.seg);
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
        let gain = match kind {
            FeatureKind::City if board.open_sides(root) > 0 => {
                let open = f64::from(board.open_sides(root));
                let size = f64::from(board.distinct_tiles(root) + board.pennants(root));
                size * left / (left + 10.0 * open)
            }
            FeatureKind::Monastery | FeatureKind::Garden => {
                let pos = board.tiles()[board.seg_tile(root)].pos;
                let missing = 8.0 - f64::from(board.surrounding_tiles(pos));
                if missing > 0.0 {
                    missing * left / (left + 4.0 * missing)
                } else {
                    0.0
                }
            }
            _ => 0.0,
        };
        let max = strength.iter().copied().max().unwrap_or(0);
        if gain > 0.0 && max > 0 {
            for (p, s) in strength.iter().enumerate().take(v.len()) {
                if *s == max {
                    v[p] += gain;
                }
            }
        }
    }
    v
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
    }
}
