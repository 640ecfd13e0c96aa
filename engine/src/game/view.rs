//! What one seat may see of a game, and games sampled from it.
//!
//! A [`SeatView`] is a copy of the game whose hidden future is replaced by a fixed,
//! canonical one: the tiles left in the pile sorted by type (the river's tiles first and
//! its lake last, as every pile of a game with the River is built), the random stream
//! (the flier's die) restarted from a fixed seed, and the messages nobody has seen sorted.
//! Two games that agree on everything their players have seen give equal seat views,
//! whatever their seeds and their piles: the view holds nothing its seat could not see.
//! Only the counts of the tiles left by type are read from the pile (public: players can
//! count them at a real table).
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
    match (t.expansion == Some(Expansion::River), t.river_last) {
        (_, true) => 1,
        (true, false) => 0,
        (false, false) => 2,
    }
}

impl Game {
    /// What `seat` may see of this game: see the [module documentation](crate::game::view).
    pub fn seat_view(&self, seat: u8) -> SeatView {
        let mut game = self.clone();
        game.reorder_hidden(|rest| rest.sort_unstable_by_key(|t| t.0));
        game.rng = Rng::new(0);
        game.reorder_unread_messages(|unread| unread.sort_unstable());
        SeatView { seat, game }
    }

    /// Rearranges the tiles left in the pile with `order`, group by group (see
    /// [`pile_group`]), so that the public shape of the pile stays as it was.
    fn reorder_hidden(&mut self, mut order: impl FnMut(&mut [TileTypeId])) {
        let rest = &mut self.table.pile[self.table.next_draw..];
        rest.sort_by_key(|t| pile_group(catalog().get(*t)));
        let mut start = 0;
        while start < rest.len() {
            let group = pile_group(catalog().get(rest[start]));
            let len = rest[start..]
                .iter()
                .take_while(|t| pile_group(catalog().get(**t)) == group)
                .count();
            order(&mut rest[start..start + len]);
            start += len;
        }
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

    /// A complete game consistent with everything the seat has seen: the tiles left
    /// shuffled (the river's before its lake, the lake before the rest), a new random
    /// stream and the unseen messages shuffled, all from `rng`.
    pub fn determinize(&self, rng: &mut Rng) -> Game {
        let mut game = self.game.clone();
        game.reorder_hidden(|rest| rng.shuffle(rest));
        game.rng = Rng::new(rng.next_u64());
        game.reorder_unread_messages(|unread| rng.shuffle(unread));
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
