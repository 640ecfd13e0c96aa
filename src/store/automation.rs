//! What the server may decide on a player's behalf: standing orders (per game, and a
//! default for every game under `game_id = ''`) and conditional turns ("plans"). The
//! rows are plain strings here; `crate::moves::auto` gives them their meaning.

use super::conn::transaction;
use diesel::prelude::*;

use super::conn::DbConn;
use super::schema::{standing_orders, turn_plans};
use super::{Store, StoreError};

/// The `game_id` of a player's default orders.
pub const EVERY_GAME: &str = "";

#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = standing_orders)]
pub struct OrderRow {
    pub user_id: String,
    /// [`EVERY_GAME`] for a default.
    pub game_id: String,
    pub kind: String,
    pub answer: String,
    pub updated_at: i64,
}

#[derive(Clone, Debug, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = turn_plans)]
pub struct PlanRow {
    pub game_id: String,
    pub user_id: String,
    /// The tile type id (`base/U`).
    pub tile: String,
    /// The JSON list of actions.
    pub actions: String,
    pub created_at: i64,
}

/// The orders (defaults and this game's) and plans of a game's players.
#[derive(Clone, Debug, Default)]
pub struct AutomationRows {
    pub orders: Vec<OrderRow>,
    pub plans: Vec<PlanRow>,
}

/// Reads the automation of `users` at `game_id` (inside a transaction or not).
pub(super) fn automation_of(
    c: &mut DbConn,
    game_id: &str,
    users: &[String],
) -> Result<AutomationRows, StoreError> {
    let orders = standing_orders::table
        .filter(standing_orders::user_id.eq_any(users))
        .filter(standing_orders::game_id.eq_any([game_id, EVERY_GAME]));
    let plans = turn_plans::table
        .filter(turn_plans::game_id.eq(game_id))
        .filter(turn_plans::user_id.eq_any(users));
    if let DbConn::Pg(pg) = c {
        // one round trip: both tables' rows, five text-and-time columns each, told apart
        // by a first column
        use diesel::dsl::sql;
        use diesel::sql_types::Bool;
        let rows: Vec<(bool, String, String, String, String, i64)> = orders
            .select((
                sql::<Bool>("true"),
                standing_orders::user_id,
                standing_orders::game_id,
                standing_orders::kind,
                standing_orders::answer,
                standing_orders::updated_at,
            ))
            .union_all(plans.select((
                sql::<Bool>("false"),
                turn_plans::user_id,
                turn_plans::game_id,
                turn_plans::tile,
                turn_plans::actions,
                turn_plans::created_at,
            )))
            .load(pg)?;
        let mut out = AutomationRows::default();
        for (order, user_id, game_id, key, value, at) in rows {
            if order {
                out.orders.push(OrderRow {
                    user_id,
                    game_id,
                    kind: key,
                    answer: value,
                    updated_at: at,
                });
            } else {
                out.plans.push(PlanRow {
                    game_id,
                    user_id,
                    tile: key,
                    actions: value,
                    created_at: at,
                });
            }
        }
        return Ok(out);
    }
    Ok(AutomationRows {
        orders: orders.select(OrderRow::as_select()).load(c)?,
        plans: plans.select(PlanRow::as_select()).load(c)?,
    })
}

/// Drops the plans of `users` at `game_id` (their turn came).
pub(super) fn drop_plans(
    c: &mut DbConn,
    game_id: &str,
    users: &[String],
) -> Result<(), diesel::result::Error> {
    if users.is_empty() {
        return Ok(());
    }
    diesel::delete(
        turn_plans::table
            .filter(turn_plans::game_id.eq(game_id))
            .filter(turn_plans::user_id.eq_any(users)),
    )
    .execute(c)?;
    Ok(())
}

impl Store {
    /// The orders and plans of `users` at `game_id`.
    pub async fn automation_of(
        &self,
        game_id: String,
        users: Vec<String>,
    ) -> Result<AutomationRows, StoreError> {
        self.run(move |c| automation_of(c, &game_id, &users)).await
    }

    /// One user's orders at `game_id` ([`EVERY_GAME`]: their defaults).
    pub async fn orders_of(
        &self,
        user_id: String,
        game_id: String,
    ) -> Result<Vec<OrderRow>, StoreError> {
        self.run(move |c| {
            Ok(standing_orders::table
                .filter(standing_orders::user_id.eq(&user_id))
                .filter(standing_orders::game_id.eq(&game_id))
                .order(standing_orders::kind)
                .select(OrderRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// Sets (`Some`) or clears (`None`) one user's orders at `game_id`, kind by kind, in
    /// one transaction.
    pub async fn set_orders(
        &self,
        user_id: String,
        game_id: String,
        changes: Vec<(String, Option<String>)>,
        now: i64,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                for (kind, answer) in &changes {
                    diesel::delete(standing_orders::table.find((&user_id, &game_id, kind)))
                        .execute(c)?;
                    if let Some(answer) = answer {
                        diesel::insert_into(standing_orders::table)
                            .values(OrderRow {
                                user_id: user_id.clone(),
                                game_id: game_id.clone(),
                                kind: kind.clone(),
                                answer: answer.clone(),
                                updated_at: now,
                            })
                            .execute(c)?;
                    }
                }
                Ok::<_, diesel::result::Error>(())
            })?;
            Ok(())
        })
        .await
    }

    /// One player's plans at a game, by tile.
    pub async fn plans_of(
        &self,
        game_id: String,
        user_id: String,
    ) -> Result<Vec<PlanRow>, StoreError> {
        self.run(move |c| {
            Ok(turn_plans::table
                .filter(turn_plans::game_id.eq(&game_id))
                .filter(turn_plans::user_id.eq(&user_id))
                .order(turn_plans::tile)
                .select(PlanRow::as_select())
                .load(c)?)
        })
        .await
    }

    /// Replaces one player's plans at a game.
    pub async fn set_plans(
        &self,
        game_id: String,
        user_id: String,
        plans: Vec<PlanRow>,
    ) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                drop_plans(c, &game_id, std::slice::from_ref(&user_id))?;
                for p in &plans {
                    diesel::insert_into(turn_plans::table)
                        .values(p)
                        .execute(c)?;
                }
                Ok::<_, diesel::result::Error>(())
            })?;
            Ok(())
        })
        .await
    }
}
