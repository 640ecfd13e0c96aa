//! The turn pipeline: what comes after a decision, stage by stage, until the next
//! decision is pending.

use serde::{Deserialize, Serialize};

use super::*;

/// The kind of decision pending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Place the drawn tile.
    PlaceTile,
    /// Place a figure on the tile just placed, or pass.
    PlaceFigure,
    /// Abbey & Mayor: place the abbey into a hole, or draw a tile.
    AbbeyOrDraw,
    /// Abbey & Mayor, after the last tile: place the abbey into a hole, or pass.
    FinalAbbey,
    /// Abbey & Mayor: the owner of a freed wagon moves it, or takes it back (pass).
    MoveWagon,
    /// Gold Mines: put the second ingot on a tile around the gold tile.
    PlaceIngot,
    /// Mage & Witch: place or move the mage or the witch (or set one aside).
    MoveMagic,
    /// Flying Machines: the flying figure lands on a feature of the target tile.
    FlierLanding,
    /// Crop Circles: the active player chooses to add or to remove.
    CropMode,
    /// Crop Circles: a player adds a follower (or passes) or removes one.
    CropAction,
    /// Ferries: place the ferry of the lake tile just placed.
    PlaceFerry,
    /// Ferries: move a ferry the placed tile reached, or stop (pass).
    MoveFerry,
    /// Robbers: place or move a robber onto a track space, or pass.
    PlaceRobber,
    /// Robbers / Messages: the active player picks the next completed feature to score.
    ScoringOrder,
    /// Messages: the player receiving points picks the figure that moves.
    ChooseScoreFigure,
    /// Robbers: figures of several players leave a robber's space in one award batch; the
    /// robber's owner picks whom to rob.
    ChooseVictim,
    /// Messages: the active player carries out the drawn message or takes 2 points.
    ResolveMessage,
    /// Nothing pending.
    GameOver,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::PlaceTile => "place_tile",
            Phase::PlaceFigure => "place_figure",
            Phase::AbbeyOrDraw => "abbey_or_draw",
            Phase::FinalAbbey => "final_abbey",
            Phase::MoveWagon => "move_wagon",
            Phase::PlaceIngot => "place_ingot",
            Phase::MoveMagic => "move_magic",
            Phase::FlierLanding => "flier_landing",
            Phase::CropMode => "crop_mode",
            Phase::CropAction => "crop_action",
            Phase::PlaceFerry => "place_ferry",
            Phase::MoveFerry => "move_ferry",
            Phase::PlaceRobber => "place_robber",
            Phase::ScoringOrder => "scoring_order",
            Phase::ChooseScoreFigure => "choose_score_figure",
            Phase::ChooseVictim => "choose_victim",
            Phase::ResolveMessage => "resolve_message",
            Phase::GameOver => "game_over",
        }
    }
}

impl Game {
    /// Draws the next placeable tile (discarding those that fit nowhere).
    pub(crate) fn start_turn(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        self.placed = None;
        if self.players[self.current as usize].abbey && self.has_hole() {
            self.phase = Phase::AbbeyOrDraw;
            return;
        }
        self.draw_tile(sink);
    }

    /// Draws the next placeable tile (discarding those that fit nowhere).
    pub(crate) fn draw_tile(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        while self.next_draw < self.pile.len() {
            let t = self.pile[self.next_draw];
            self.next_draw += 1;
            if self.has_placement(t) {
                self.drawn = Some(t);
                self.phase = Phase::PlaceTile;
                if sink.enabled() {
                    sink.push(Effect::TileDrawn {
                        player: self.current,
                        tile: catalog().get(t).id.clone(),
                    });
                }
                return;
            }
            if sink.enabled() {
                sink.push(Effect::TileDiscarded {
                    tile: catalog().get(t).id.clone(),
                });
            }
        }
        self.begin_final(sink);
    }

    /// Hook *tile placed*, after the board took the tile: gold, magic, then the figure.
    pub(crate) fn after_tile(&mut self, sink: &mut impl EffectSink) {
        let Some(ti) = self.placed else {
            return;
        };
        let pt = self.board.tiles()[ti];
        let tt = pt.tile_type();
        self.magic_symbol_pending =
            self.expansions.contains(Expansion::MageWitch) && tt.symbols & symbol::MAGIC != 0;
        if self.expansions.contains(Expansion::Robbers)
            && tt.symbols & symbol::ROBBER != 0
            && self.start_robbers()
        {
            return;
        }
        self.after_robbers(sink);
    }

    /// After the robbers (if any): the gold, then the magic and the figure.
    pub(crate) fn after_robbers(&mut self, sink: &mut impl EffectSink) {
        let Some(ti) = self.placed else {
            return;
        };
        if !self.players[self.current as usize].active {
            self.finish_turn(sink);
            return;
        }
        let tt = self.board.tiles()[ti].tile_type();
        if self.expansions.contains(Expansion::GoldMines) && tt.symbols & symbol::GOLD != 0 {
            self.put_ingot(ti, sink);
            let around = self.ingot_targets();
            if around.len() == 1 {
                let j = self.board.tile_index_at(around[0]).unwrap_or(ti);
                self.put_ingot(j, sink);
            } else if !around.is_empty() {
                self.phase = Phase::PlaceIngot;
                return;
            }
        }
        self.pre_figure();
    }

    /// The decisions before the figure phase: the magic symbol's move, then a meeting of
    /// the mage and the witch; otherwise the figure phase.
    pub(crate) fn pre_figure(&mut self) {
        if self.magic_symbol_pending {
            if self.has_magic_move() || self.magic.iter().any(|m| m.is_some()) {
                self.phase = Phase::MoveMagic;
                return;
            }
            self.magic_symbol_pending = false;
        }
        if self.magic_meeting() {
            self.phase = Phase::MoveMagic;
            return;
        }
        self.phase = Phase::PlaceFigure;
    }

    /// After the figure phase: the ferry of a lake tile placed this part, then ferry
    /// moves, then scoring.
    pub(crate) fn after_figure(&mut self, sink: &mut impl EffectSink) {
        if !self.players[self.current as usize].active {
            // the active player left during the figure phase: straight to scoring
            self.finish_turn(sink);
            return;
        }
        // a ferry that joined the mage's and the witch's roads: one of them moves first
        if self.magic_meeting() {
            self.magic_after_ferry = true;
            self.phase = Phase::MoveMagic;
            return;
        }
        if self.expansions.contains(Expansion::Ferries) {
            if let Some(ti) = self.part_tile {
                if self.jetties(ti).len() >= 2
                    && !self.ferries.iter().any(|f| f.tile as usize == ti)
                {
                    self.phase = Phase::PlaceFerry;
                    return;
                }
            }
            if !self.movable_ferries().is_empty() {
                self.phase = Phase::MoveFerry;
                return;
            }
        }
        self.finish_turn(sink);
    }

    /// A magic move made because a ferry brought the mage and the witch together: the
    /// turn goes on with the ferries.
    pub(crate) fn resume_after_magic(&mut self, sink: &mut impl EffectSink) {
        if self.magic_after_ferry && self.phase == Phase::PlaceFigure {
            self.magic_after_ferry = false;
            self.after_figure(sink);
        }
    }

    /// Scoring after the figure phase, then the next turn (or the end).
    pub(crate) fn finish_turn(&mut self, sink: &mut impl EffectSink) {
        // the scoring step is one scoring round (Messages)
        self.message_round_earned = false;
        self.award_stage = AwardStage::Scoring;
        if let Some(ti) = self.placed.take() {
            self.score_completed(ti, sink);
        }
        self.barn_placed = None;
        if self.scoring_order.len() >= 2 {
            if self.players[self.current as usize].active {
                self.phase = Phase::ScoringOrder;
                return;
            }
            // the active player left during the turn
            self.listed_scoring_order();
        }
        self.scoring_order.clear();
        self.drain_awards(sink);
    }

    /// Nobody is left to choose the scoring order: the features not chosen yet score in
    /// the listed order.
    pub(crate) fn listed_scoring_order(&mut self) {
        let rest: Vec<u16> = self.scoring_order.drain(..).map(|c| c.batch).collect();
        self.scoring_chosen.extend(rest);
        self.order_awards();
    }

    /// Puts the queued feature awards in the chosen order (other awards stay after them).
    pub(crate) fn order_awards(&mut self) {
        let chosen = std::mem::take(&mut self.scoring_chosen);
        let key = |a: &Award| {
            chosen
                .iter()
                .position(|b| *b == a.batch)
                .unwrap_or(chosen.len() + a.batch as usize)
        };
        self.awards.sort_by_key(key);
    }

    /// Continues the queue, then the turn from where the awards came.
    pub(crate) fn drain_awards(&mut self, sink: &mut impl EffectSink) {
        if self.process_awards(sink) {
            return;
        }
        match self.award_stage {
            AwardStage::Abbot => {
                self.award_stage = AwardStage::Scoring;
                self.after_figure(sink);
            }
            AwardStage::Scoring => self.continue_wagons(sink),
            AwardStage::Message => self.continue_messages(sink),
        }
    }

    /// Freed wagons move one by one (a wagon with nowhere to go returns at once); then the
    /// turn part ends.
    pub(crate) fn continue_wagons(&mut self, sink: &mut impl EffectSink) {
        while let Some(&(owner, from)) = self.wagons.first() {
            if self.has_wagon_target() {
                self.phase = Phase::MoveWagon;
                return;
            }
            self.wagons.remove(0);
            self.players[owner as usize].supply[FigureKind::Wagon as usize] += 1;
            if sink.enabled() {
                sink.push(Effect::FigureReturned {
                    player: owner,
                    figure: FigureKind::Wagon,
                    x: from.x,
                    y: from.y,
                    spot: String::new(),
                });
            }
        }
        self.continue_messages(sink);
    }

    /// After a turn part: the final abbey round, the builder's second part, or the next
    /// player.
    pub(crate) fn end_turn_part(&mut self, sink: &mut impl EffectSink) {
        if let Some(ti) = self.part_tile.take() {
            if self.start_crop_circle(ti, sink) {
                return;
            }
        }
        if self.in_final {
            self.next_final(sink);
            return;
        }
        if self.tiles_left() == 0 {
            self.begin_final(sink);
            return;
        }
        if self.extra_tiles > 0 && self.players[self.current as usize].active {
            // Messages: an extra tile for the same player
            self.extra_tiles -= 1;
        } else if self.builder_trigger
            && !self.extra_part_used
            && self.players[self.current as usize].active
        {
            // Traders & Builders: a second turn part for the same player
            self.builder_trigger = false;
            self.extra_part_used = true;
        } else {
            self.builder_trigger = false;
            self.extra_part_used = false;
            self.extra_tiles = 0;
            self.advance_player();
        }
        self.start_turn(sink);
    }

    /// Abbey & Mayor: after the last tile, each player holding an abbey may place it,
    /// starting left of the last active player and ending with them.
    pub(crate) fn begin_final(&mut self, sink: &mut impl EffectSink) {
        self.drawn = None;
        self.placed = None;
        if !self.expansions.contains(Expansion::AbbeyMayor) {
            self.end_game(sink);
            return;
        }
        let n = self.players.len() as u8;
        self.final_queue = (1..=n).map(|k| (self.current + k) % n).collect();
        self.in_final = true;
        self.builder_trigger = false;
        self.next_final(sink);
    }

    pub(crate) fn next_final(&mut self, sink: &mut impl EffectSink) {
        self.placed = None;
        while !self.final_queue.is_empty() {
            let p = self.final_queue.remove(0);
            let pl = &self.players[p as usize];
            if pl.active && pl.abbey && self.has_hole() {
                self.current = p;
                self.phase = Phase::FinalAbbey;
                return;
            }
        }
        self.in_final = false;
        self.end_game(sink);
    }

    /// The next active player clockwise.
    pub(crate) fn advance_player(&mut self) {
        let n = self.players.len() as u8;
        for k in 1..=n {
            let p = (self.current + k) % n;
            if self.players[p as usize].active {
                self.current = p;
                return;
            }
        }
    }
}
