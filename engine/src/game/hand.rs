//! House rule `tiles_in_hand` (2 or 3): each player holds that many drawn tiles, hidden
//! from the others, and places one of them per turn.
//!
//! At the start of a turn part the active player's hand is filled up from the pile (a
//! tile that fits nowhere is handled by `unplaceable_tile` as it is drawn; a hand none of
//! whose tiles fits any more is shown and emptied the same way, then filled again). While
//! the River is being built a hand holds a river tile alone, so the river is played one
//! tile at a time as usual. With the pile empty, players place the tiles left in their
//! hands; a player with an empty hand is passed over, and the game ends when the pile and
//! every hand are empty. A player who leaves puts the hand back into the box (its tiles
//! are shown as discarded).
//!
//! With one tile in hand (the default) none of this runs: the table holds no hands and
//! the drawn tile is the game's `drawn`, as in the standard rules.

use super::*;
use crate::rules::UnplaceableTile;

fn first_stack(t: TileTypeId) -> bool {
    catalog().get(t).in_first_stack()
}

impl Game {
    /// The tiles in `seat`'s hand (house rule `tiles_in_hand`), in the order they were
    /// drawn; empty when the game plays with one tile in hand. Hidden information: show
    /// it to that seat only.
    pub fn hand(&self, seat: u8) -> &[TileTypeId] {
        self.hands
            .as_ref()
            .and_then(|h| h.get(seat as usize))
            .map_or(&[], |h| h.as_slice())
    }

    /// How many tiles each seat holds in hand (public); empty when the game plays with one
    /// tile in hand.
    pub fn hand_sizes(&self) -> Vec<usize> {
        self.hands
            .as_ref()
            .map_or_else(Vec::new, |h| h.iter().map(Vec::len).collect())
    }

    /// Whether every hand is empty (always with one tile in hand).
    pub(crate) fn hands_empty(&self) -> bool {
        self.hands
            .as_ref()
            .is_none_or(|h| h.iter().all(|h| h.is_empty()))
    }

    /// The tiles the pending tile decision may place: the drawn tile, or every kind of
    /// tile in the active player's hand (each once, in the order of the hand).
    pub fn tiles_to_place(&self) -> Vec<TileTypeId> {
        if self.phase != Phase::PlaceTile {
            return Vec::new();
        }
        if self.hands.is_none() {
            return self.drawn.into_iter().collect();
        }
        let mut v: Vec<TileTypeId> = Vec::new();
        for t in self.hand(self.current) {
            if !v.contains(t) {
                v.push(*t);
            }
        }
        v
    }

    /// The tile a `place_tile` action places: the drawn tile, or the tile of the hand it
    /// names (it must name one when the hand holds more than one kind).
    pub(crate) fn tile_to_place(&self, named: Option<&str>) -> Result<TileTypeId, PlayError> {
        let cat = catalog();
        let named_in = |tiles: &[TileTypeId], id: &str| {
            cat.id(id)
                .filter(|t| tiles.contains(t))
                .ok_or_else(|| PlayError::TileNotInHand(id.to_string()))
        };
        if self.hands.is_none() {
            let t = self.drawn.ok_or(PlayError::GameOver)?;
            return match named {
                Some(id) => named_in(&[t], id),
                None => Ok(t),
            };
        }
        let kinds = self.tiles_to_place();
        match (named, kinds.as_slice()) {
            (Some(id), _) => named_in(&kinds, id),
            (None, [t]) => Ok(*t),
            (None, []) => Err(PlayError::GameOver),
            (None, _) => Err(PlayError::TileNotNamed),
        }
    }

    /// The tile `t` leaves the active player's hand to be placed.
    pub(crate) fn take_from_hand(&mut self, t: TileTypeId) {
        let me = self.current as usize;
        if let Some(hand) = self.hands.as_mut().and_then(|h| h.get_mut(me)) {
            if let Some(i) = hand.iter().position(|x| *x == t) {
                hand.remove(i);
            }
        }
    }

    /// Stage *draw* with tiles in hand: fills the active player's hand up from the pile
    /// and asks for a tile of it, or (hand and pile empty) goes back to the start, which
    /// passes the player over or ends the game.
    pub(super) fn fill_hand(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        let size = self.rules.tiles_in_hand.count();
        let me = self.current as usize;
        loop {
            while self.hand(self.current).len() < size && self.next_draw < self.pile.len() {
                let t = self.pile[self.next_draw];
                let hand = self.hand(self.current);
                // a river tile is held alone, so the river is played tile by tile
                if !hand.is_empty() && (first_stack(t) || hand.iter().any(|h| first_stack(*h))) {
                    break;
                }
                self.next_draw += 1;
                if self.has_placement(t) {
                    self.returned = 0;
                    if let Some(h) = self.hands.as_mut().and_then(|h| h.get_mut(me)) {
                        h.push(t);
                    }
                    if sink.enabled() {
                        sink.push(Effect::TileToHand {
                            player: self.current,
                            tile: catalog().get(t).id.clone(),
                        });
                    }
                    continue;
                }
                self.unplaceable_drawn(t, sink);
            }
            let hand = self.hand(self.current);
            if hand.is_empty() {
                // the pile is empty too
                return Some(Stage::Start);
            }
            if hand.iter().any(|t| self.has_placement(*t)) {
                self.phase = Phase::PlaceTile;
                return None;
            }
            // no tile of the hand fits any more: the hand is shown and emptied
            let held = self
                .hands
                .as_mut()
                .and_then(|h| h.get_mut(me))
                .map(std::mem::take)
                .unwrap_or_default();
            for t in held {
                self.drop_held(t, sink);
            }
        }
    }

    /// A tile of a hand leaves it unplayed: back into the pile (house rule
    /// `unplaceable_tile = reshuffled`, under the same limits as a drawn tile) or out of
    /// the game.
    fn drop_held(&mut self, t: TileTypeId, sink: &mut impl EffectSink) {
        let others = self.pile.len() - self.next_draw;
        let back = self.rules.unplaceable_tile == UnplaceableTile::Reshuffled
            && !first_stack(t)
            && self.returned < others;
        // the tile was drawn earlier: it is among the drawn part of the pile
        let at = self.pile[..self.next_draw].iter().rposition(|x| *x == t);
        let returned = match at {
            Some(i) if back => {
                self.returned += 1;
                let last = self.next_draw - 1;
                self.table.pile.swap(i, last);
                self.next_draw = last;
                let rest = &mut self.table.pile[self.table.next_draw..];
                self.table.rng.shuffle(rest);
                true
            }
            _ => false,
        };
        super::turn::tile_gone(t, returned, sink);
    }

    /// A player leaves: their hand goes back into the box, shown as discarded.
    pub(crate) fn discard_hand(&mut self, player: u8, sink: &mut impl EffectSink) {
        let held = self
            .hands
            .as_mut()
            .and_then(|h| h.get_mut(player as usize))
            .map(std::mem::take)
            .unwrap_or_default();
        for t in held {
            super::turn::tile_gone(t, false, sink);
        }
    }

    /// The tiles `seat` has not seen yet, by type, in catalog order: the pile and the
    /// other players' hands (with one tile in hand: [`Game::tiles_left_by_type`]).
    pub fn tiles_unseen_by(&self, seat: u8) -> Vec<(TileTypeId, u32)> {
        self.count_by_type(
            self.pile[self.next_draw..].iter().chain(
                self.hands
                    .iter()
                    .flatten()
                    .enumerate()
                    .filter(|(p, _)| *p != seat as usize)
                    .flat_map(|(_, h)| h.iter()),
            ),
        )
    }

    pub(crate) fn count_by_type<'a>(
        &self,
        tiles: impl Iterator<Item = &'a TileTypeId>,
    ) -> Vec<(TileTypeId, u32)> {
        let mut counts = vec![0u32; catalog().tiles.len()];
        for t in tiles {
            counts[t.0 as usize] += 1;
        }
        counts
            .into_iter()
            .enumerate()
            .filter(|(_, c)| *c > 0)
            .map(|(i, c)| (TileTypeId(i as u16), c))
            .collect()
    }
}
