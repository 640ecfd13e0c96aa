//! What one seat may see of a game, and games sampled from it.
//!
//! A [`SeatView`] is a copy of the game whose hidden future is replaced by a fixed,
//! canonical one: the tiles left in the pile sorted by type (the river's tiles first and
//! its lake last, as every pile of a game with the River is built), the random stream
//! (the flier's die) restarted from a fixed seed, and the messages nobody has seen sorted.
//! Two games that agree on everything their players have seen give equal seat views,
//! whatever their seeds and their piles: the view holds nothing its seat could not see.
//! Only the counts of the tiles left by type are read from the pile (public: players can
//! count them at a real table). With the house rule `tiles_in_hand` the other players'
//! hands are hidden future too: the view keeps their sizes, not their tiles, and a
//! determinized game deals them anew from the tiles the seat has not seen.
//!
//! [`SeatView::determinize`] samples a complete game from a view: the hidden future drawn
//! anew from a caller's random numbers, the visible past kept. Computer opponents search
//! over such samples (information-set sampling), never over the game itself.

use super::*;
use crate::catalog::TileType;

/// A game as one seat sees it: the visible past, a canonical hidden future.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatView {
    seat: u8,
    game: Game,
}

/// The order a pile of a normal game keeps in public: the river's tiles, then its lake,
/// then the rest.
fn pile_group(t: &TileType) -> u8 {
    match (t.in_first_stack(), t.river_last) {
        (_, true) => 1,
        (true, false) => 0,
        (false, false) => 2,
    }
}

impl Game {
    /// What `seat` may see of this game: see the [module documentation](crate::game::view).
    pub fn seat_view(&self, seat: u8) -> SeatView {
        let mut game = self.clone();
        game.reorder_hidden(seat, |rest| rest.sort_unstable_by_key(|t| t.0));
        game.rng = Rng::new(0);
        game.reorder_unseen(|unseen| unseen.sort_unstable());
        SeatView { seat, game }
    }

    /// Rearranges the tiles `seat` has not seen with `order`, group by group (see
    /// [`pile_group`]), so that the public shape of the pile stays as it was. With the
    /// house rule `tiles_in_hand` the other players' hands are part of it: their tiles
    /// join the pile's, and the hands are dealt again (same sizes) from the front of the
    /// rearranged tiles; the drawn part of the pile is sorted, so that it tells neither
    /// what they hold nor when they drew it.
    fn reorder_hidden(&mut self, seat: u8, mut order: impl FnMut(&mut [TileTypeId])) {
        let Some(mut hands) = self.table.hands.take() else {
            let rest = &mut self.table.pile[self.table.next_draw..];
            reorder_groups(rest, &mut order);
            return;
        };
        let sizes: Vec<usize> = hands.iter().map(Vec::len).collect();
        let mut held = Vec::new();
        for (p, h) in hands.iter_mut().enumerate() {
            if p != seat as usize {
                held.append(h);
            }
        }
        let mut drawn = self.table.pile[..self.table.next_draw].to_vec();
        for t in &held {
            if let Some(i) = drawn.iter().rposition(|x| x == t) {
                drawn.remove(i);
            }
        }
        drawn.sort_unstable_by_key(|t| t.0);
        let mut pool = held;
        pool.extend_from_slice(&self.table.pile[self.table.next_draw..]);
        reorder_groups(&mut pool, &mut order);
        let mut k = 0;
        for (p, h) in hands.iter_mut().enumerate() {
            if p != seat as usize {
                h.extend_from_slice(&pool[k..k + sizes[p]]);
                k += sizes[p];
            }
        }
        drawn.extend_from_slice(&pool);
        self.table.next_draw = drawn.len() - (pool.len() - k);
        self.table.pile = drawn;
        self.table.hands = Some(hands);
    }
}

/// Sorts `tiles` by [`pile_group`] and rearranges each group with `order`.
fn reorder_groups(tiles: &mut [TileTypeId], order: &mut impl FnMut(&mut [TileTypeId])) {
    tiles.sort_by_key(|t| pile_group(catalog().get(*t)));
    let mut start = 0;
    while start < tiles.len() {
        let group = pile_group(catalog().get(tiles[start]));
        let len = tiles[start..]
            .iter()
            .take_while(|t| pile_group(catalog().get(**t)) == group)
            .count();
        order(&mut tiles[start..start + len]);
        start += len;
    }
}

impl SeatView {
    /// The seat whose view this is.
    pub fn seat(&self) -> u8 {
        self.seat
    }

    /// The game as the seat sees it, with the canonical hidden future: its reads
    /// (board, players, pending decision, legal actions, tiles left by type) are the real
    /// game's; playing it on draws tiles in a fixed order that tells nothing.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// A complete game consistent with everything the seat has seen: the tiles left (and
    /// the other players' hands, dealt again from them)
    /// shuffled (the river's before its lake, the lake before the rest), a new random
    /// stream and the unseen messages shuffled, all from `rng`.
    pub fn determinize(&self, rng: &mut Rng) -> Game {
        let mut game = self.game.clone();
        game.reorder_hidden(self.seat, |rest| rng.shuffle(rest));
        game.rng = Rng::new(rng.next_u64());
        game.reorder_unseen(|unseen| rng.shuffle(unseen));
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(expansions: Vec<Expansion>, seed: u64) -> Game {
        let config = GameConfig {
            players: 2,
            expansions,
            tile_order: None,
            seed,
            rules: Default::default(),
        };
        Game::new(&config).expect("set-up").0
    }

    #[test]
    fn the_view_hides_the_order_of_the_pile() {
        let a = game(vec![Expansion::River], 1);
        let mut b = a.clone();
        b.table.pile[b.table.next_draw..].reverse();
        b.rng = Rng::new(99);
        assert_ne!(a, b);
        assert_eq!(a.seat_view(0), b.seat_view(0));
        assert_eq!(a.seat_view(1).seat(), 1);
        assert_eq!(
            a.seat_view(0).game().tiles_left_by_type(),
            a.tiles_left_by_type()
        );
    }

    #[test]
    fn a_determinized_game_keeps_the_counts_and_the_river_first() {
        let a = game(vec![Expansion::River, Expansion::Messages], 3);
        let view = a.seat_view(0);
        let mut rng = Rng::new(5);
        let d = view.determinize(&mut rng);
        assert_eq!(d.tiles_left_by_type(), a.tiles_left_by_type());
        assert_eq!(d.board(), a.board());
        let groups: Vec<u8> = d.pile[d.next_draw..]
            .iter()
            .map(|t| pile_group(catalog().get(*t)))
            .collect();
        assert!(groups.windows(2).all(|w| w[0] <= w[1]), "{groups:?}");
        let mut stack = d.message_stack().to_vec();
        stack.sort_unstable();
        assert_eq!(stack, crate::expansions::messages::MESSAGES.to_vec());
        // another sample, another future; the same caller seed, the same sample
        let e = view.determinize(&mut rng);
        assert_ne!(d.pile, e.pile);
        assert_eq!(d, view.determinize(&mut Rng::new(5)));
    }
}
