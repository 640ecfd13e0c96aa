//! The turn pipeline: what comes after a decision, stage by stage, until the next
//! decision is pending.
//!
//! A turn part runs through the base game's stages of [`Stage`] in order: start, draw,
//! tile, figure, scoring, next part (or, with the pile empty, the final round and the
//! end). [`Game::run`] is the one loop that drives them: each stage either names the
//! stage that follows or sets the pending decision (`Phase`) and stops. After the tile,
//! after the figure, after scoring and in the final round the expansions' stages run
//! (`crate::expansions::stages`, through the registry), each naming the one that follows
//! until the turn is back at a base stage; between stages the turn asks the expansions
//! through their hooks (a choice before the draw, the start of a scoring, another part for
//! the active player, the end of a turn). A decision's handler (`game/play.rs`) applies
//! the decision and re-enters the loop at the stage that follows it; where the turn goes
//! on after a decision that can come from several places is a stage value too
//! (`after_part`, and the expansions' own), not a flag.

use super::*;
use crate::rules::UnplaceableTile;

impl Game {
    /// Runs the turn pipeline from `stage` until a decision is pending or the game is over.
    pub(crate) fn run(&mut self, mut stage: Stage, sink: &mut impl EffectSink) {
        loop {
            let next = match stage {
                Stage::Start => self.stage_start(),
                Stage::Draw => self.stage_draw(sink),
                Stage::Tile => self.placed.map(|_| Stage::AFTER_TILE),
                Stage::Figure => {
                    self.phase = Phase::PlaceFigure;
                    None
                }
                Stage::Scoring => self.stage_scoring(sink),
                Stage::NextPart => self.stage_next_part(),
                Stage::FinalRound => {
                    self.drawn = None;
                    self.placed = None;
                    Some(Stage::FINAL_ROUND)
                }
                Stage::End => {
                    self.end_game(sink);
                    None
                }
                // a stage an expansion adds
                _ => self.table.run_expansion_stage(stage, sink),
            };
            match next {
                Some(s) => stage = s,
                None => return,
            }
        }
    }

    /// A new turn part: the expansions' choice before the draw, or a tile drawn.
    fn stage_start(&mut self) -> Option<Stage> {
        self.drawn = None;
        self.placed = None;
        if self.hands.is_some() && self.tiles_left() == 0 && self.hand(self.current).is_empty() {
            // tiles in hand: with the pile empty, a player whose hand is empty is passed
            // over; when every hand is empty the game ends
            if self.hands_empty() {
                return Some(Stage::FinalRound);
            }
            self.turn_over();
            self.advance_player();
            return Some(Stage::Start);
        }
        if self.ask_before_draw() {
            return None;
        }
        Some(Stage::Draw)
    }

    /// Draws the next placeable tile (discarding those that fit nowhere, or with the house
    /// rule `unplaceable_tile = reshuffled` putting them back into the pile); with the pile
    /// empty, the final round.
    fn stage_draw(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        self.drawn = None;
        if self.hands.is_some() {
            return self.fill_hand(sink);
        }
        while self.next_draw < self.pile.len() {
            let t = self.pile[self.next_draw];
            self.next_draw += 1;
            if self.has_placement(t) {
                self.returned = 0;
                self.drawn = Some(t);
                self.phase = Phase::PlaceTile;
                if sink.enabled() {
                    sink.push(Effect::TileDrawn {
                        player: self.current,
                        tile: catalog().get(t).id.clone(),
                    });
                }
                return None;
            }
            self.unplaceable_drawn(t, sink);
        }
        Some(Stage::FinalRound)
    }

    /// The tile `t` just drawn fits nowhere: back into the pile (see
    /// [`Game::return_to_pile`]) or removed from the game.
    pub(crate) fn unplaceable_drawn(&mut self, t: TileTypeId, sink: &mut impl EffectSink) {
        let back = self.return_to_pile(t);
        tile_gone(t, back, sink);
    }

    /// House rule `unplaceable_tile = reshuffled`: the tile `t` just drawn fits nowhere;
    /// it goes back into the pile and the rest of the pile is shuffled again, unless it is
    /// a river tile (the river stack is not reshuffled) or as many tiles have gone back in
    /// a row as remain in the pile (then it is removed, so the draw always ends). Returns
    /// whether it went back.
    fn return_to_pile(&mut self, t: TileTypeId) -> bool {
        let others = self.pile.len() - self.next_draw;
        if self.rules.unplaceable_tile != UnplaceableTile::Reshuffled
            || catalog().get(t).in_first_stack()
            || self.returned >= others
        {
            self.returned = 0;
            return false;
        }
        self.returned += 1;
        self.next_draw -= 1;
        let rest = &mut self.table.pile[self.table.next_draw..];
        self.table.rng.shuffle(rest);
        true
    }

    /// Scores what the tile completed, the expansions told first; their stages after
    /// scoring follow.
    fn stage_scoring(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        self.scoring_begins();
        if let Some(ti) = self.placed.take() {
            self.score_completed(ti, sink);
        }
        Some(Stage::AFTER_SCORING)
    }

    /// After a turn part: the round the part belongs to goes on (`after_part`: the final
    /// round's next player), the final round begins, the active player plays another part
    /// (the expansions say), or the next player's turn begins.
    fn stage_next_part(&mut self) -> Option<Stage> {
        if self.after_part != Stage::Start {
            return Some(self.after_part);
        }
        if self.tiles_left() == 0 && self.hands_empty() {
            return Some(Stage::FinalRound);
        }
        let active = self.players[self.current as usize].active;
        if !(active && self.another_part()) {
            self.turn_over();
            self.advance_player();
        }
        Some(Stage::Start)
    }
}

/// The consequence of a tile that fits nowhere: `tile_returned` when it went back into the
/// pile, `tile_discarded` when it left the game.
pub(crate) fn tile_gone(t: TileTypeId, back: bool, sink: &mut impl EffectSink) {
    if sink.enabled() {
        let tile = catalog().get(t).id.clone();
        sink.push(if back {
            Effect::TileReturned { tile }
        } else {
            Effect::TileDiscarded { tile }
        });
    }
}
