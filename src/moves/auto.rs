//! Decisions the server takes on a player's behalf, after every write and when a game
//! starts, until a real choice is pending:
//!
//! 1. **forced**: the pending decision has exactly one legal option (decided by
//!    `system`);
//! 2. **standing orders**: the player has an answer for this kind of decision (crop
//!    circles, a freed wagon, the Messages score figure, the robber's victim), in this
//!    game or as their default (decided by `standing_order`);
//! 3. **conditional turns**: the player's turn starts with a tile they left a plan for,
//!    and the plan is legal on the board as it is (decided by `plan`). A plan is tried
//!    on a copy of the game and plays whole or not at all.
//!
//! Everything here is a function of the game and the players' orders and plans, so a
//! replay of the stored log (which holds the decisions taken) equals the live game.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use tilepost_engine::expansions::messages::ScoreFigure;
use tilepost_engine::{Action, Expansion, FigureKind, Game, Outcome, Phase, TileTypeId};
use utoipa::ToSchema;

use crate::store::{AutomationRows, DecidedBy, OrderRow, PlanRow, EVERY_GAME};

/// Crop circles, when the circle lets players add a follower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CropAddOrder {
    /// Wait for me.
    #[default]
    Ask,
    /// Never add a follower.
    Never,
    /// Add one whenever I may (an ordinary follower when I have one).
    WhenPossible,
}

/// Crop circles, when the circle makes players remove a follower.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CropRemoveOrder {
    #[default]
    Ask,
    /// Remove an ordinary follower when I have one there, else any.
    OrdinaryFirst,
    /// Remove a special figure (big follower, mayor, wagon) when I have one there.
    SpecialFirst,
}

/// Abbey & Mayor: my wagon was freed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WagonOrder {
    #[default]
    Ask,
    /// Always take it back to my supply.
    Supply,
}

/// The Messages: which score figure moves for points I receive.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum MessageFigureOrder {
    #[default]
    Ask,
    Meeple,
    Messenger,
}

/// The Robbers: whom my robber robs when I may choose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum VictimOrder {
    #[default]
    Ask,
    /// The one with the most points (the first listed on a tie).
    Leader,
}

/// A player's standing orders: an answer for each kind of decision that can come to
/// them outside their own choices (`ask`: wait for the player).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct StandingOrders {
    pub crop_add: CropAddOrder,
    pub crop_remove: CropRemoveOrder,
    pub freed_wagon: WagonOrder,
    pub message_figure: MessageFigureOrder,
    pub robber_victim: VictimOrder,
}

impl StandingOrders {
    /// The kinds of orders, as stored.
    pub const KINDS: &'static [&'static str] = &[
        "crop_add",
        "crop_remove",
        "freed_wagon",
        "message_figure",
        "robber_victim",
    ];

    /// The expansion whose decisions an order of this kind answers.
    pub fn expansion_of(kind: &str) -> Option<Expansion> {
        match kind {
            "crop_add" | "crop_remove" => Some(Expansion::CropCircles),
            "freed_wagon" => Some(Expansion::AbbeyMayor),
            "message_figure" => Some(Expansion::Messages),
            "robber_victim" => Some(Expansion::Robbers),
            _ => None,
        }
    }

    /// The kinds of orders that can come into play in a game with these expansions (by
    /// id): the others answer decisions such a game never asks for.
    pub fn kinds_for(expansions: &[String]) -> Vec<&'static str> {
        Self::KINDS
            .iter()
            .copied()
            .filter(|k| {
                Self::expansion_of(k).is_some_and(|e| expansions.iter().any(|x| x == e.id()))
            })
            .collect()
    }

    /// The orders set by `rows` over `self` (rows of unknown kinds or answers are
    /// ignored: they come from no version of this server).
    pub fn with_rows<'a>(self, rows: impl Iterator<Item = &'a OrderRow>) -> StandingOrders {
        let mut map = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return self,
        };
        for r in rows {
            if Self::KINDS.contains(&r.kind.as_str()) {
                let before =
                    map.insert(r.kind.clone(), serde_json::Value::String(r.answer.clone()));
                // an answer this version does not know leaves the kind as it was
                if serde_json::from_value::<StandingOrders>(serde_json::Value::Object(map.clone()))
                    .is_err()
                {
                    if let Some(b) = before {
                        map.insert(r.kind.clone(), b);
                    }
                }
            }
        }
        serde_json::from_value(serde_json::Value::Object(map)).unwrap_or(self)
    }

    /// Each kind with its stored answer.
    pub fn answers(&self) -> Vec<(&'static str, String)> {
        let map = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m,
            _ => return Vec::new(),
        };
        Self::KINDS
            .iter()
            .filter_map(|k| {
                map.get(*k)
                    .and_then(|v| v.as_str())
                    .map(|v| (*k, v.to_string()))
            })
            .collect()
    }
}

/// A conditional turn: "if I draw `tile`, play these actions" (the placement, then
/// optionally the figure or a pass).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub tile: TileTypeId,
    pub actions: Vec<Action>,
}

/// What the server may decide for each seat of a game.
#[derive(Clone, Debug, Default)]
pub struct Automation {
    /// Effective orders by seat (a seat without orders asks).
    pub orders: HashMap<u8, StandingOrders>,
    /// Plans by seat.
    pub plans: HashMap<u8, Vec<Plan>>,
}

impl Automation {
    /// From the stored rows of a game's players (`seat_of` maps a user to their seat):
    /// defaults first, the game's own orders over them. A plan row that does not read
    /// is skipped (it was checked when it was set).
    pub fn from_rows<'a>(
        rows: &'a AutomationRows,
        game_id: &'a str,
        seat_of: impl Fn(&str) -> Option<u8>,
    ) -> Automation {
        let mut a = Automation::default();
        let mut users: Vec<&str> = rows.orders.iter().map(|r| r.user_id.as_str()).collect();
        users.sort_unstable();
        users.dedup();
        for user in users {
            let Some(seat) = seat_of(user) else { continue };
            let of = |game: &'a str| {
                rows.orders
                    .iter()
                    .filter(move |r| r.user_id == user && r.game_id == game)
            };
            let orders = StandingOrders::default()
                .with_rows(of(EVERY_GAME))
                .with_rows(of(game_id));
            a.orders.insert(seat, orders);
        }
        for p in &rows.plans {
            let Some(seat) = seat_of(&p.user_id) else {
                continue;
            };
            if let Some(plan) = plan_of_row(p) {
                a.plans.entry(seat).or_default().push(plan);
            }
        }
        a
    }
}

/// Reads a stored plan.
pub fn plan_of_row(p: &PlanRow) -> Option<Plan> {
    let tile = tilepost_engine::catalog().id(&p.tile)?;
    let actions: Vec<Action> = serde_json::from_str(&p.actions).ok()?;
    Some(Plan { tile, actions })
}

/// Checks the form of a plan's actions: a tile placement, then at most a figure or a
/// pass. `Err` says what is wrong.
pub fn check_plan_form(actions: &[Action]) -> Result<(), &'static str> {
    match actions {
        [Action::PlaceTile { .. }] => Ok(()),
        [Action::PlaceTile { .. }, Action::PlaceFigure { .. } | Action::Pass] => Ok(()),
        [Action::PlaceTile { .. }, _] => Err("the second action must be place_figure or pass"),
        [] => Err("a plan needs its place_tile action"),
        [_, ..] if actions.len() > 2 => Err("a plan has one or two actions"),
        _ => Err("a plan starts with place_tile"),
    }
}

/// The answer a standing order gives to the pending decision of `player`, if one does.
pub fn order_answer(
    game: &Game,
    phase: Phase,
    options: &[Action],
    orders: &StandingOrders,
) -> Option<Action> {
    let first = |f: &dyn Fn(&Action) -> bool| options.iter().find(|a| f(a)).cloned();
    let answer = match phase {
        Phase::CropAction => {
            let adding = options
                .iter()
                .any(|a| matches!(a, Action::AddFollower { .. }));
            let removing = options
                .iter()
                .any(|a| matches!(a, Action::RemoveFollower { .. }));
            if adding {
                match orders.crop_add {
                    CropAddOrder::Ask => None,
                    CropAddOrder::Never => first(&|a| *a == Action::Pass),
                    CropAddOrder::WhenPossible => first(&|a| {
                        matches!(
                            a,
                            Action::AddFollower {
                                figure: FigureKind::Follower,
                                ..
                            }
                        )
                    })
                    .or_else(|| first(&|a| matches!(a, Action::AddFollower { .. }))),
                }
            } else if removing {
                let ordinary = |a: &Action| {
                    matches!(
                        a,
                        Action::RemoveFollower {
                            figure: FigureKind::Follower,
                            ..
                        }
                    )
                };
                let special = |a: &Action| matches!(a, Action::RemoveFollower { figure, .. } if *figure != FigureKind::Follower);
                match orders.crop_remove {
                    CropRemoveOrder::Ask => None,
                    CropRemoveOrder::OrdinaryFirst => first(&ordinary).or_else(|| first(&special)),
                    CropRemoveOrder::SpecialFirst => first(&special).or_else(|| first(&ordinary)),
                }
            } else {
                None
            }
        }
        Phase::MoveWagon => match orders.freed_wagon {
            WagonOrder::Ask => None,
            WagonOrder::Supply => first(&|a| *a == Action::Pass),
        },
        Phase::ChooseScoreFigure => {
            let figure = match orders.message_figure {
                MessageFigureOrder::Ask => return None,
                MessageFigureOrder::Meeple => ScoreFigure::Meeple,
                MessageFigureOrder::Messenger => ScoreFigure::Messenger,
            };
            first(&|a| *a == Action::ChooseScoreFigure { figure })
        }
        Phase::ChooseVictim => match orders.robber_victim {
            VictimOrder::Ask => None,
            VictimOrder::Leader => {
                let score = |a: &Action| match a {
                    Action::ChooseVictim { victim } => game
                        .players()
                        .get(*victim as usize)
                        .map_or(i32::MIN, |p| p.score),
                    _ => i32::MIN,
                };
                // the first of the highest scores
                options
                    .iter()
                    .filter(|a| matches!(a, Action::ChooseVictim { .. }))
                    .fold(None::<&Action>, |best, a| match best {
                        Some(b) if score(b) >= score(a) => Some(b),
                        _ => Some(a),
                    })
                    .cloned()
            }
        },
        _ => None,
    };
    answer.filter(|a| options.contains(a))
}

/// A decision the server took, with who took it.
#[derive(Clone, Debug)]
pub struct Taken {
    pub outcome: Outcome,
    pub by: DecidedBy,
}

/// Why the automatic decisions stopped short: the engine refused an option it listed.
#[derive(Debug)]
pub struct Broken(pub String);

/// The most decisions one settling may take (a whole game is far fewer).
const MAX_TAKEN: usize = 100_000;

/// The decision one step takes, without the plans: a forced option or a standing order.
fn simple_step(game: &Game, auto: &Automation) -> Option<(Action, DecidedBy)> {
    let p = game.pending()?;
    let options = game.legal_actions();
    if options.len() == 1 {
        return options.into_iter().next().map(|a| (a, DecidedBy::System));
    }
    let orders = auto.orders.get(&p.player)?;
    order_answer(game, p.phase, &options, orders).map(|a| (a, DecidedBy::StandingOrder))
}

/// Tries `plan` for the pending turn on a copy of the game: the placement, the forced
/// decisions and standing orders in between, then the figure. `None`: not legal now.
fn try_plan(game: &Game, player: u8, plan: &Plan, auto: &Automation) -> Option<(Game, Vec<Taken>)> {
    let mut g = game.clone();
    let mut taken = Vec::new();
    let (place, rest) = plan.actions.split_first()?;
    let outcome = g.play(player, place).ok()?;
    taken.push(Taken {
        outcome,
        by: DecidedBy::Plan,
    });
    if let Some(figure) = rest.first() {
        loop {
            let p = g.pending()?;
            if p.player == player && p.phase == Phase::PlaceFigure {
                break;
            }
            let (action, by) = simple_step(&g, auto)?;
            let outcome = g.play(p.player, &action).ok()?;
            taken.push(Taken { outcome, by });
            if taken.len() > MAX_TAKEN {
                return None;
            }
        }
        let outcome = g.play(player, figure).ok()?;
        taken.push(Taken {
            outcome,
            by: DecidedBy::Plan,
        });
    }
    Some((g, taken))
}

/// Takes every decision the server may take from the game as it is, until a real
/// choice is pending or the game is over; returns them in order. Plans are used once.
pub fn settle(game: &mut Game, auto: &Automation) -> Result<Vec<Taken>, Broken> {
    let mut taken: Vec<Taken> = Vec::new();
    let mut used_plan: Vec<u8> = Vec::new();
    while taken.len() < MAX_TAKEN {
        let Some(p) = game.pending() else { break };
        if game.is_over() {
            break;
        }
        if let Some((action, by)) = simple_step(game, auto) {
            let outcome = game
                .play(p.player, &action)
                .map_err(|e| Broken(format!("listed option {action:?} refused: {e}")))?;
            taken.push(Taken { outcome, by });
            continue;
        }
        if p.phase == Phase::PlaceTile && !used_plan.contains(&p.player) {
            let plan = p.tile.and_then(|t| {
                auto.plans
                    .get(&p.player)
                    .and_then(|ps| ps.iter().find(|pl| pl.tile == t))
            });
            if let Some(plan) = plan {
                used_plan.push(p.player);
                if let Some((g, t)) = try_plan(game, p.player, plan, auto) {
                    *game = g;
                    taken.extend(t);
                    continue;
                }
            }
        }
        break;
    }
    Ok(taken)
}

#[cfg(test)]
mod tests {
    //! Properties over random games with random orders and plans, and the measurement of
    //! the decisions that wait for a person (`cargo test --release --lib waiting -- --ignored --nocapture`).

    use super::*;
    use tilepost_engine::rng::Rng;
    use tilepost_engine::{Event, Expansion, GameConfig, Rotation};

    fn pick<T: Copy>(rng: &mut Rng, xs: &[T]) -> T {
        xs[rng.below(xs.len() as u64) as usize]
    }

    fn random_orders(rng: &mut Rng) -> StandingOrders {
        use CropAddOrder as A;
        use CropRemoveOrder as R;
        StandingOrders {
            crop_add: pick(rng, &[A::Ask, A::Never, A::WhenPossible]),
            crop_remove: pick(rng, &[R::Ask, R::OrdinaryFirst, R::SpecialFirst]),
            freed_wagon: pick(rng, &[WagonOrder::Ask, WagonOrder::Supply]),
            message_figure: pick(
                rng,
                &[
                    MessageFigureOrder::Ask,
                    MessageFigureOrder::Meeple,
                    MessageFigureOrder::Messenger,
                ],
            ),
            robber_victim: pick(rng, &[VictimOrder::Ask, VictimOrder::Leader]),
        }
    }

    /// Plans for `seat`: some tile types still in the pile, each placed on a random cell
    /// next to the board (legal or not), with a random figure option of the drawn
    /// tile's phase or none.
    fn random_plans(rng: &mut Rng, game: &Game) -> Vec<Plan> {
        let left = game.tiles_left_by_type();
        let cells: Vec<(i32, i32)> = game
            .board()
            .tiles()
            .iter()
            .flat_map(|t| {
                let p = t.pos;
                [
                    (p.x + 1, p.y),
                    (p.x - 1, p.y),
                    (p.x, p.y + 1),
                    (p.x, p.y - 1),
                ]
            })
            .collect();
        let mut plans = Vec::new();
        for (tile, _) in left {
            if cells.is_empty() || rng.below(3) != 0 {
                continue;
            }
            let (x, y) = cells[rng.below(cells.len() as u64) as usize];
            let mut actions = vec![Action::PlaceTile {
                x,
                y,
                rotation: Rotation::quarter_turns(rng.below(4) as u8),
                tile: None,
            }];
            match rng.below(3) {
                0 => actions.push(Action::Pass),
                1 => actions.push(Action::PlaceFigure {
                    figure: FigureKind::Follower,
                    spot: pick(rng, &["N", "E", "S", "W", "C", "Nl", "Er"]).to_string(),
                }),
                _ => {}
            }
            plans.push(Plan { tile, actions });
        }
        plans
    }

    fn config(rng: &mut Rng, all: bool) -> GameConfig {
        let expansions: Vec<Expansion> = Expansion::ALL
            .into_iter()
            .filter(|e| e.is_implemented() && (all || rng.below(2) == 0))
            .collect();
        GameConfig {
            players: 2 + rng.below(3) as u8,
            expansions,
            tile_order: None,
            seed: rng.next_u64(),
            rules: Default::default(),
        }
    }

    /// Checks one settling step by step from `before`, and returns the game after it.
    fn check_taken(before: &Game, taken: &[Taken], auto: &Automation) -> Game {
        let mut g = before.clone();
        let mut plan_player: Option<u8> = None;
        for t in taken {
            let Event::Decided { player, action, .. } = &t.outcome.event else {
                panic!(
                    "an automatic decision is a decided event: {:?}",
                    t.outcome.event
                );
            };
            let p = g.pending().expect("a decision was pending");
            assert_eq!(p.player, *player, "decided for the pending player");
            let options = g.legal_actions();
            match t.by {
                DecidedBy::System => assert_eq!(options, vec![action.clone()]),
                DecidedBy::StandingOrder => {
                    assert!(options.len() > 1);
                    let orders = auto.orders.get(player).expect("the player's orders");
                    assert_eq!(
                        order_answer(&g, p.phase, &options, orders).as_ref(),
                        Some(action),
                        "a standing order answers only its kind, for its player"
                    );
                }
                DecidedBy::Plan => {
                    if let Action::PlaceTile { .. } = action {
                        let plan = auto
                            .plans
                            .get(player)
                            .and_then(|ps| ps.iter().find(|pl| Some(pl.tile) == p.tile))
                            .expect("a plan of this player for this tile");
                        assert_eq!(&plan.actions[0], action);
                        plan_player = Some(*player);
                    } else {
                        assert_eq!(plan_player, Some(*player), "a plan plays for its player");
                    }
                }
            }
            let mut again = g.clone();
            let o = again
                .play(*player, action)
                .expect("the taken action is legal");
            assert_eq!(o.event, t.outcome.event);
            g = again;
        }
        g
    }

    /// After a settling no decision with one option, or answered by an order or by a
    /// legal plan, is left pending.
    fn check_settled(game: &Game, auto: &Automation, tried: &[u8]) {
        let Some(p) = game.pending() else { return };
        if game.is_over() {
            return;
        }
        let options = game.legal_actions();
        assert_ne!(
            options.len(),
            1,
            "a decision with one option was left pending"
        );
        if let Some(orders) = auto.orders.get(&p.player) {
            assert_eq!(order_answer(game, p.phase, &options, orders), None);
        }
        if p.phase == Phase::PlaceTile && !tried.contains(&p.player) {
            if let Some(plan) = auto
                .plans
                .get(&p.player)
                .and_then(|ps| ps.iter().find(|pl| Some(pl.tile) == p.tile))
            {
                assert!(
                    try_plan(game, p.player, plan, auto).is_none(),
                    "a legal plan was left unplayed"
                );
            }
        }
    }

    #[test]
    fn random_games_with_orders_and_plans_keep_every_property() {
        let mut rng = Rng::new(0x5eed_0a70);
        let mut plans_played = 0;
        let mut orders_applied = 0;
        let mut forced = 0;
        for _ in 0..400 {
            let cfg = config(&mut rng, false);
            let (mut game, first) = Game::new(&cfg).expect("a game");
            let mut log = vec![first];
            let mut auto = Automation::default();
            for seat in 0..cfg.players {
                if rng.below(3) != 0 {
                    auto.orders.insert(seat, random_orders(&mut rng));
                }
            }
            let mut writes = 0;
            loop {
                // the write: the settling that follows it
                let before = game.clone();
                let taken = settle(&mut game, &auto).expect("settled");
                let after = check_taken(&before, &taken, &auto);
                assert_eq!(after, game);
                let mut tried = Vec::new();
                for t in &taken {
                    match t.by {
                        DecidedBy::System => forced += 1,
                        DecidedBy::StandingOrder => orders_applied += 1,
                        DecidedBy::Plan => plans_played += 1,
                    }
                    if let Event::Decided {
                        player,
                        action: Action::PlaceTile { .. },
                        ..
                    } = &t.outcome.event
                    {
                        // their turn came: their plans are dropped
                        auto.plans.remove(player);
                        tried.push(*player);
                    }
                    log.push(t.outcome.event.clone());
                }
                if let Some(p) = game.pending() {
                    if p.phase == Phase::PlaceTile
                        && auto
                            .plans
                            .get(&p.player)
                            .is_some_and(|ps| ps.iter().any(|pl| Some(pl.tile) == p.tile))
                    {
                        tried.push(p.player);
                    }
                }
                check_settled(&game, &auto, &tried);
                if game.is_over() {
                    break;
                }
                writes += 1;
                assert!(writes < 5_000, "the game ends");
                // someone leaves plans (before their turn), then the pending player decides
                let planner = rng.below(u64::from(cfg.players)) as u8;
                let p = game.pending().expect("a decision is pending");
                if planner != p.player && rng.below(4) == 0 {
                    auto.plans.insert(planner, random_plans(&mut rng, &game));
                }
                let options = game.legal_actions();
                let a = options[rng.below(options.len() as u64) as usize].clone();
                let o = game.play(p.player, &a).expect("a listed option");
                if let Action::PlaceTile { .. } = a {
                    auto.plans.remove(&p.player);
                }
                log.push(o.event);
            }
            // the stored log replays to the live game
            let replayed = Game::replay(&log).expect("replay");
            assert_eq!(replayed, game);
        }
        assert!(forced > 0 && orders_applied > 0 && plans_played > 0,
            "every kind of automatic decision happened: {forced} forced, {orders_applied} orders, {plans_played} plans");
    }

    /// Decisions that wait for a person per game, without and with the automatic ones
    /// (standing orders at their most common setting), over 1,000 random games each.
    #[test]
    #[ignore]
    fn waiting_decisions_per_game() {
        let common = StandingOrders {
            crop_add: CropAddOrder::Never,
            crop_remove: CropRemoveOrder::OrdinaryFirst,
            freed_wagon: WagonOrder::Supply,
            message_figure: MessageFigureOrder::Meeple,
            robber_victim: VictimOrder::Leader,
        };
        for (label, players, all) in [
            ("2 players, base game", 2u8, false),
            ("4 players, every expansion", 4, true),
        ] {
            let mut rng = Rng::new(7);
            let (mut before, mut forced_only, mut after) = (0u64, 0u64, 0u64);
            let games = 1_000u64;
            for _ in 0..games {
                let mut cfg = config(&mut rng, all);
                cfg.players = players;
                if !all {
                    cfg.expansions.clear();
                }
                let (mut game, _) = Game::new(&cfg).expect("a game");
                let mut auto = Automation::default();
                for seat in 0..players {
                    auto.orders.insert(seat, common);
                }
                while !game.is_over() {
                    let options = game.legal_actions();
                    let Some(p) = game.pending() else { break };
                    before += 1;
                    let mut a = options[rng.below(options.len() as u64) as usize].clone();
                    if options.len() > 1 {
                        forced_only += 1;
                        let orders = auto.orders.get(&p.player).copied().unwrap_or_default();
                        match order_answer(&game, p.phase, &options, &orders) {
                            Some(answer) => a = answer,
                            None => after += 1,
                        }
                    }
                    game.play(p.player, &a).expect("a listed option");
                }
            }
            println!(
                "{label}: {:.1} decisions per game wait for a person before, {:.1} with forced decisions automatic, {:.1} with standing orders too",
                before as f64 / games as f64,
                forced_only as f64 / games as f64,
                after as f64 / games as f64
            );
        }
    }
}
