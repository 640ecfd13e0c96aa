//! The turn pipeline: what comes after a decision, stage by stage, until the next
//! decision is pending.
//!
//! A turn part runs through the stages of [`Stage`] in order: start (abbey or draw), draw,
//! tile, gold (after the robbers), magic, figure, ferries, scoring, awards, wagons,
//! messages, crop circle, next part (or the final abbey round and the end). [`Game::run`]
//! is the one loop that drives them: each stage either names the stage that follows or
//! sets the pending decision (`Phase`) and stops. A decision's handler (`game/play.rs`)
//! applies the decision and re-enters the loop at the stage that follows it. Expansions
//! contribute to stages through their hooks (`expansions/*.rs`); where the turn goes on
//! after a decision that can come from several places is a stage value too
//! (`after_magic`, `after_awards`, `after_part`), not a flag.

use super::*;
use crate::rules::UnplaceableTile;

impl Game {
    /// Runs the turn pipeline from `stage` until a decision is pending or the game is over.
    pub(crate) fn run(&mut self, mut stage: Stage, sink: &mut impl EffectSink) {
        loop {
            let next = match stage {
                Stage::Start => self.stage_start(),
                Stage::Draw => self.stage_draw(sink),
                Stage::Tile => self.stage_tile(),
                Stage::Gold => self.stage_gold(sink),
                Stage::Magic => self.stage_magic(),
                Stage::Figure => {
                    self.phase = Phase::PlaceFigure;
                    None
                }
                Stage::Ferries => self.stage_ferries(),
                Stage::Scoring => self.stage_scoring(sink),
                Stage::Awards => self.stage_awards(sink),
                Stage::Wagons => self.stage_wagons(sink),
                Stage::Messages => (!self.draw_message(sink)).then_some(Stage::CropCircle),
                Stage::CropCircle => self.stage_crop_circle(),
                Stage::Crop => (!self.next_crop_player()).then_some(Stage::CropCircle),
                Stage::NextPart => self.stage_next_part(),
                Stage::FinalRound => self.stage_final_round(),
                Stage::FinalAbbey => self.stage_final_abbey(),
                Stage::End => {
                    self.end_game(sink);
                    None
                }
            };
            match next {
                Some(s) => stage = s,
                None => return,
            }
        }
    }

    /// A new turn part: the abbey-or-draw choice (Abbey & Mayor), or a tile drawn.
    fn stage_start(&mut self) -> Option<Stage> {
        self.drawn = None;
        self.placed = None;
        if self.hands.is_some() && self.tiles_left() == 0 && self.hand(self.current).is_empty() {
            // tiles in hand: with the pile empty, a player whose hand is empty is passed
            // over; when every hand is empty the game ends
            if self.hands_empty() {
                return Some(Stage::FinalRound);
            }
            self.reset_builder();
            self.drop_extra_tiles();
            self.advance_player();
            return Some(Stage::Start);
        }
        if self.abbey_or_draw() {
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
            || catalog().get(t).expansion == Some(Expansion::River)
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

    /// The tile is placed: its magic symbol (Mage & Witch) is noted, its robber symbol
    /// starts the robber placement (The Robbers).
    fn stage_tile(&mut self) -> Option<Stage> {
        let ti = self.placed?;
        let symbols = self.board.tiles()[ti].tile_type().symbols;
        self.note_magic_symbol(symbols);
        if self.start_robbers(symbols) {
            return None;
        }
        Some(Stage::Gold)
    }

    /// After the robbers: a gold tile's ingots (Gold Mines).
    fn stage_gold(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        let ti = self.placed?;
        if !self.players[self.current as usize].active {
            return Some(Stage::Scoring);
        }
        if self.gold_tile_placed(ti, sink) {
            return None;
        }
        Some(Stage::Magic)
    }

    /// The magic symbol's move, then a meeting of the mage and the witch (Mage & Witch);
    /// then the figure, or the ferries when a ferry brought the two together.
    fn stage_magic(&mut self) -> Option<Stage> {
        if self.ask_magic_move() {
            return None;
        }
        Some(std::mem::replace(&mut self.after_magic, Stage::Figure))
    }

    /// After the figure: the ferry of a lake tile placed this part, then ferry moves
    /// (Ferries).
    fn stage_ferries(&mut self) -> Option<Stage> {
        if !self.players[self.current as usize].active {
            // the active player left during the figure phase: straight to scoring
            return Some(Stage::Scoring);
        }
        // a ferry that joined the mage's and the witch's roads: one of them moves first
        if self.ask_magic_move_before_ferries() {
            return None;
        }
        if let Some(phase) = self.ferry_decision() {
            self.phase = phase;
            return None;
        }
        Some(Stage::Scoring)
    }

    /// Scores what the tile completed; with several features on the score track, the
    /// active player orders them first.
    fn stage_scoring(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        // the scoring step is one scoring round (Messages)
        self.new_scoring_round();
        self.after_awards = Stage::Wagons;
        if let Some(ti) = self.placed.take() {
            self.score_completed(ti, sink);
        }
        self.forget_barn();
        if self.ask_scoring_order() {
            return None;
        }
        Some(Stage::Awards)
    }

    /// Works off the award queue (score track), then goes on where the awards came from:
    /// the ferries after the abbot's return, the wagons after scoring, the next message
    /// after a message's points.
    fn stage_awards(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        if self.process_awards(sink) {
            return None;
        }
        let next = self.after_awards;
        if next == Stage::Ferries {
            self.after_awards = Stage::Wagons;
        }
        Some(next)
    }

    /// Freed wagons move one by one (a wagon with nowhere to go returns at once).
    fn stage_wagons(&mut self, sink: &mut impl EffectSink) -> Option<Stage> {
        if self.wagons_stage(sink) {
            return None;
        }
        Some(Stage::Messages)
    }

    /// The crop circle of the tile placed this part (Crop Circles).
    fn stage_crop_circle(&mut self) -> Option<Stage> {
        if let Some(ti) = self.part_tile.take() {
            if self.start_crop_circle(ti) {
                return None;
            }
        }
        Some(Stage::NextPart)
    }

    /// After a turn part: the final abbey round, the builder's second part, a message's
    /// extra tile, or the next player.
    fn stage_next_part(&mut self) -> Option<Stage> {
        if self.after_part == Stage::FinalAbbey {
            return Some(Stage::FinalAbbey);
        }
        if self.tiles_left() == 0 && self.hands_empty() {
            return Some(Stage::FinalRound);
        }
        let active = self.players[self.current as usize].active;
        // Messages: an extra tile for the same player; Traders & Builders: a second turn
        // part for the same player
        if !(active && (self.take_extra_tile() || self.take_second_part())) {
            self.reset_builder();
            self.drop_extra_tiles();
            self.advance_player();
        }
        Some(Stage::Start)
    }

    /// After the last tile: with Abbey & Mayor each player holding an abbey may place it,
    /// starting left of the last active player and ending with them; then the end.
    fn stage_final_round(&mut self) -> Option<Stage> {
        self.drawn = None;
        self.placed = None;
        let last = self.current;
        if !self.start_final_abbey_round(last) {
            return Some(Stage::End);
        }
        self.after_part = Stage::FinalAbbey;
        self.cancel_builder();
        Some(Stage::FinalAbbey)
    }

    /// The next player of the final abbey round, or the end.
    fn stage_final_abbey(&mut self) -> Option<Stage> {
        self.placed = None;
        if self.ask_final_abbey() {
            return None;
        }
        self.after_part = Stage::Start;
        Some(Stage::End)
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
