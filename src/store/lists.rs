//! Lists paged in the query: every list orders by a key that ends in a unique column,
//! reads `limit + 1` rows after the caller's key (`WHERE (key) > (cursor) ORDER BY key
//! LIMIT n + 1`) and hands back the key of the last row when there is more. The API
//! turns these keys into opaque cursors; nothing here loads a whole list.
//!
//! The game list ("most urgent first") is a chain of four segments, each served by an
//! index and read in turn until the page is full:
//!
//! | group | games | order |
//! |---|---|---|
//! | 0 | running, the caller's decision pending | nearest deadline (no clock: last), then longest waiting, then id |
//! | 1 | running, someone else's decision | most recently updated first, then id (descending) |
//! | 2 | open | as group 1 |
//! | 3 | finished | as group 1 |
//!
//! A deadline is `turn_started_at + days_per_move (or the turn's time bank) + the time the caller spent on
//! vacation since the turn started`. With `V(t)` the caller's vacation time before `t`,
//! that is `turn_started_at + days_per_move - V(turn_started_at) + V(now)`; `V(now)` is
//! the same for every game of group 0 (the caller decides in all of them), so the query
//! orders by the rest, which does not move with the clock.

use std::collections::HashMap;

use super::fixed::{after as after_key, fixed, Fixed};
use super::page::{page_of, Page};
use diesel::prelude::*;
use diesel::sql_types::{BigInt, Bool};

use super::schema::chat_messages;
use super::schema::{game_events, game_seats, games};

use super::{
    load_seats, ChatRow, ClockRow, DbConn, EventRow, GameData, GameRecord, GameRow, GameStatus,
    Store, StoreError, VacationRow, Visibility,
};

/// Filters of the game list.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Only games where this user has a seat.
    pub player_id: Option<String>,
    /// Only games in this state.
    pub status: Option<GameStatus>,
    /// The caller (their turns come first).
    pub me: Option<String>,
    /// With `me`: only games where the caller's decision is pending (`true`) or is not
    /// (`false`).
    pub my_turn: Option<bool>,
}

/// The sort key of a game in the list (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameKey {
    pub group: u8,
    pub k1: i64,
    pub k2: i64,
    pub id: String,
}

/// Group 0's first key: the deadline less the caller's vacation time until now (no
/// clock: after every clocked game). Plain SQL that both databases read alike.
fn urgency() -> &'static str {
    static TEXT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let end = "(CASE WHEN v.ended_at IS NOT NULL AND v.ended_at < v.ends_at \
                   THEN v.ended_at ELSE v.ends_at END)";
        let upto = format!(
            "(CASE WHEN {end} < games.turn_started_at THEN {end} ELSE games.turn_started_at END)"
        );
        format!(
            "COALESCE((SELECT games.turn_started_at \
             + COALESCE(gc.turn_bank_ms, CAST(gc.days_per_move AS BIGINT) * 86400000) \
             - CAST(COALESCE((SELECT SUM(CASE WHEN {upto} > v.started_at \
                 THEN {upto} - v.started_at ELSE 0 END) \
               FROM vacations v WHERE v.user_id = games.current_user_id), 0) AS BIGINT) \
             FROM game_clocks gc WHERE gc.game_id = games.id \
             AND games.turn_started_at IS NOT NULL), 9223372036854775807)"
        )
    });
    TEXT.as_str()
}

/// Group 0's keyset condition: after `(urgency, waiting, id)`.
fn urgency_after() -> &'static str {
    static TEXT: std::sync::LazyLock<String> =
        std::sync::LazyLock::new(|| format!("({}, {WAITING}, games.id) > (", urgency()));
    TEXT.as_str()
}

/// Group 0's second key: how long the decision has waited.
const WAITING: &str = "COALESCE(games.turn_started_at, games.updated_at)";

fn group_condition(group: u8) -> Fixed<Bool> {
    // literals, not bound values, so that the planners can match the partial indexes
    fixed(match group {
        0 | 1 => "games.status = 'active'",
        2 => "games.status = 'open'",
        _ => "games.status = 'finished'",
    })
}

/// `games.status = 'active'` as a literal: a condition that lets the planners use the
/// partial index `games_my_turn` (a bound value would hide it from a generic plan).
pub(super) fn running() -> Fixed<Bool> {
    group_condition(0)
}

fn group_of_status(status: GameStatus) -> &'static [u8] {
    match status {
        GameStatus::Active => &[0, 1],
        GameStatus::Open => &[2],
        GameStatus::Finished => &[3],
    }
}

type GameKeyRow = (GameRow, i64, i64);

/// One segment of the game list: up to `n` games of `group` after `after`.
fn game_segment(
    c: &mut DbConn,
    f: &GameFilter,
    group: u8,
    after: Option<&GameKey>,
    n: i64,
) -> Result<Vec<GameKeyRow>, StoreError> {
    // group 0 is the caller's turns: the caller sits in each of those games, so that
    // neither a seat of the caller's nor the visibility needs checking there (fewer
    // conditions, a cheaper plan for the hottest list)
    let mine_by_turn = group == 0 && f.me.is_some();
    if group == 0 && (f.me.is_none() || f.my_turn == Some(false)) {
        return Ok(Vec::new());
    }
    let mut q = games::table.into_boxed().filter(group_condition(group));
    if let Some(p) = f
        .player_id
        .as_ref()
        .filter(|p| !(mine_by_turn && f.me.as_ref() == Some(*p)))
    {
        // per row, through the unique (game_id, user_id): the page's rows are read in
        // the order's index and checked one by one, never the player's whole seat list
        q = q.filter(diesel::dsl::exists(
            game_seats::table
                .filter(game_seats::game_id.eq(games::id))
                .filter(game_seats::user_id.eq(p.clone())),
        ));
    }
    // a private game is listed for its players alone (the caller's seat, when the list
    // is of the caller's games, says so already)
    let public = games::visibility.eq(Visibility::Public.as_str());
    q = match &f.me {
        Some(_) if mine_by_turn => q,
        Some(me) if f.player_id.as_ref() == Some(me) => q,
        Some(me) => q.filter(
            public.or(diesel::dsl::exists(
                game_seats::table
                    .filter(game_seats::game_id.eq(games::id))
                    .filter(game_seats::user_id.eq(me.clone())),
            )),
        ),
        None => q.filter(public),
    };
    match (&f.me, f.my_turn) {
        (Some(me), Some(true)) if group != 0 => q = q.filter(games::current_user_id.eq(me.clone())),
        (Some(me), Some(false)) => {
            q = q.filter(
                games::current_user_id
                    .is_null()
                    .or(games::current_user_id.ne(me.clone())),
            )
        }
        _ => {}
    }
    if group == 0 {
        let Some(me) = &f.me else {
            return Ok(Vec::new());
        };
        q = q.filter(games::current_user_id.eq(me.clone()));
        if let Some(k) = after {
            q = q.filter(after_key(urgency_after(), k.k1, Some(k.k2), k.id.clone()));
        }
        let rows: Vec<(GameRecord, i64, i64)> = q
            .order_by(fixed::<BigInt>(urgency()).asc())
            .then_order_by(fixed::<BigInt>(WAITING).asc())
            .then_order_by(games::id.asc())
            .limit(n)
            .select((
                GameRecord::as_select(),
                fixed::<BigInt>(urgency()),
                fixed::<BigInt>(WAITING),
            ))
            .load(c)?;
        return rows
            .into_iter()
            .map(|(g, k1, k2)| Ok((GameRow::try_from(g)?, k1, k2)))
            .collect();
    }
    if group == 1 {
        if let Some(me) = &f.me {
            if f.my_turn == Some(true) {
                return Ok(Vec::new());
            }
            q = q.filter(
                games::current_user_id
                    .is_null()
                    .or(games::current_user_id.ne(me.clone())),
            );
        }
    }
    if let Some(k) = after {
        q = q.filter(after_key(
            "(games.updated_at, games.id) < (",
            k.k1,
            None,
            k.id.clone(),
        ));
    }
    let rows: Vec<GameRecord> = q
        .order_by(games::updated_at.desc())
        .then_order_by(games::id.desc())
        .limit(n)
        .select(GameRecord::as_select())
        .load(c)?;
    super::game_rows(rows).map(|rows| {
        rows.into_iter()
            .map(|g| {
                let k1 = g.updated_at;
                (g, k1, 0)
            })
            .collect()
    })
}

fn list_games(
    c: &mut DbConn,
    f: &GameFilter,
    after: Option<&GameKey>,
    limit: i64,
) -> Result<Page<GameData, GameKey>, StoreError> {
    let groups: &[u8] = match &f.status {
        Some(s) => group_of_status(*s),
        None => &[0, 1, 2, 3],
    };
    // only a running game has a pending decision: the caller's turns are all in group 0
    let groups: &[u8] = if f.my_turn == Some(true) {
        if groups.contains(&0) {
            &[0]
        } else {
            &[]
        }
    } else {
        groups
    };
    let start = after.map_or(0, |k| k.group);
    let mut found: Vec<(u8, GameKeyRow)> = Vec::new();
    for &g in groups.iter().filter(|g| **g >= start) {
        let want = limit + 1 - found.len() as i64;
        if want <= 0 {
            break;
        }
        let from = after.filter(|k| k.group == g);
        for row in game_segment(c, f, g, from, want)? {
            found.push((g, row));
        }
    }
    let more = found.len() as i64 > limit;
    found.truncate(limit as usize);
    let next = if more {
        found.last().map(|(g, (row, k1, k2))| GameKey {
            group: *g,
            k1: *k1,
            k2: *k2,
            id: row.id.clone(),
        })
    } else {
        None
    };
    let ids: Vec<String> = found.iter().map(|(_, (g, _, _))| g.id.clone()).collect();
    let mut seats = load_seats(c, &ids)?;
    let rows = found
        .into_iter()
        .map(|(_, (g, _, _))| GameData {
            seats: seats.remove(&g.id).unwrap_or_default(),
            game: g,
            events: Vec::new(),
        })
        .collect();
    Ok(Page { rows, next })
}

/// A page of games with the clocks of its running games and the vacations of the
/// players they wait for (see [`Store::list_games_with_clocks`]).
pub struct GameListPage {
    pub page: Page<GameData, GameKey>,
    pub clocks: HashMap<String, ClockRow>,
    pub vacations: Vec<VacationRow>,
}

/// Which end of the chat a page starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChatOrder {
    OldestFirst,
    NewestFirst,
}

impl Store {
    /// A page of games matching the filter, the most urgent first, each with its seats.
    pub async fn list_games(
        &self,
        f: GameFilter,
        after: Option<GameKey>,
        limit: i64,
    ) -> Result<Page<GameData, GameKey>, StoreError> {
        self.run(move |c| list_games(c, &f, after.as_ref(), limit))
            .await
    }

    /// [`Store::list_games`] with what the page's deadlines need, in one checkout of a
    /// connection: the clocks of its running games, and the vacations (since the
    /// earliest turn start among them) of the players those games wait for.
    pub async fn list_games_with_clocks(
        &self,
        f: GameFilter,
        after: Option<GameKey>,
        limit: i64,
    ) -> Result<GameListPage, StoreError> {
        self.run(move |c| {
            let page = list_games(c, &f, after.as_ref(), limit)?;
            let running: Vec<&GameData> = page
                .rows
                .iter()
                .filter(|g| g.game.status == GameStatus::Active)
                .collect();
            let ids: Vec<String> = running.iter().map(|g| g.game.id.clone()).collect();
            let clocks = if ids.is_empty() {
                HashMap::new()
            } else {
                super::clocks::clocks_q(c, &ids)?
            };
            let waiting: Vec<&&GameData> = running
                .iter()
                .filter(|g| clocks.contains_key(&g.game.id))
                .collect();
            let mut users: Vec<String> = waiting
                .iter()
                .filter_map(|g| g.game.current_user_id.clone())
                .collect();
            users.sort();
            users.dedup();
            let since = waiting.iter().filter_map(|g| g.game.turn_started_at).min();
            let vacations = match since {
                Some(since) if !users.is_empty() => super::clocks::vacations_q(c, &users, since)?,
                _ => Vec::new(),
            };
            Ok(GameListPage {
                page,
                clocks,
                vacations,
            })
        })
        .await
    }

    /// A page of a game's log (`seq > after`, ascending) and the log before it, from
    /// the first event (the engine replays it to derive the page's consequences; a
    /// game's log is bounded by its tiles). Returns `(log up to the page's end, next)`.
    pub async fn events_page(
        &self,
        game_id: String,
        after: i64,
        limit: i64,
    ) -> Result<Page<EventRow, i64>, StoreError> {
        self.run(move |c| {
            let ends: Vec<i64> = game_events::table
                .filter(game_events::game_id.eq(&game_id))
                .filter(game_events::seq.gt(after))
                .order(game_events::seq.asc())
                .limit(limit + 1)
                .select(game_events::seq)
                .load(c)?;
            let page = page_of(ends, limit, |s| *s);
            let Some(until) = page.rows.last().copied() else {
                return Ok(Page {
                    rows: Vec::new(),
                    next: None,
                });
            };
            let rows = game_events::table
                .filter(game_events::game_id.eq(&game_id))
                .filter(game_events::seq.le(until))
                .order(game_events::seq.asc())
                .select(EventRow::as_select())
                .load(c)?;
            Ok(Page {
                rows,
                next: page.next.map(|_| until),
            })
        })
        .await
    }

    /// A page of a game's chat after the message numbered `after` (in `order`), with
    /// the writers' names.
    pub async fn chat_page(
        &self,
        game_id: String,
        order: ChatOrder,
        after: Option<i64>,
        limit: i64,
    ) -> Result<Page<(ChatRow, String), i64>, StoreError> {
        self.run(move |c| {
            let mut q = chat_messages::table
                .filter(chat_messages::game_id.eq(game_id))
                .into_boxed();
            q = match (order, after) {
                (ChatOrder::OldestFirst, Some(n)) => q.filter(chat_messages::n.gt(n)),
                (ChatOrder::NewestFirst, Some(n)) => q.filter(chat_messages::n.lt(n)),
                (_, None) => q,
            };
            q = match order {
                ChatOrder::OldestFirst => q.order(chat_messages::n.asc()),
                ChatOrder::NewestFirst => q.order(chat_messages::n.desc()),
            };
            let rows: Vec<ChatRow> = q.limit(limit + 1).select(ChatRow::as_select()).load(c)?;
            let page = page_of(rows, limit, |r| r.n);
            let mut ids: Vec<String> = page.rows.iter().map(|r| r.user_id.clone()).collect();
            ids.sort();
            ids.dedup();
            let names = super::accounts::usernames(c, &ids)?;
            Ok(Page {
                rows: page
                    .rows
                    .into_iter()
                    .map(|r| {
                        let n = names.get(&r.user_id).cloned().unwrap_or_default();
                        (r, n)
                    })
                    .collect(),
                next: page.next,
            })
        })
        .await
    }

    /// How many messages a game's chat holds (they are numbered from 1 without gaps).
    pub async fn chat_count(&self, game_id: String) -> Result<i64, StoreError> {
        self.run(move |c| {
            let last: Option<i64> = chat_messages::table
                .filter(chat_messages::game_id.eq(game_id))
                .select(diesel::dsl::max(chat_messages::n))
                .first(c)?;
            Ok(last.unwrap_or(0))
        })
        .await
    }
}
