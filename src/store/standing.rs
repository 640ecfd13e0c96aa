//! Standing: what a game's end writes (results, figures, ratings: in the transaction of
//! its last event) and what profiles and the leaderboard read.
//!
//! A rated game's end locks its players' rating rows (every pool's, in user-id order)
//! before it counts the rated games each pair of them played together within the day
//! ([`crate::standing::pair_limit_reached`]) and rates: two games of one pair that end
//! together, in any process, are judged one after the other.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Double, Integer, Text};

use super::schema::{game_results, ratings, user_stats, users};
use super::Outcome;
use super::{DbConn, Page, Store, StoreError, TxError, UserRow};
use crate::standing::{self, Pool, Rating, UnratedReason};

/// A player's part in an ended game, as the decision service saw it.
#[derive(Clone, Debug)]
pub struct PlayerEnd {
    pub user_id: String,
    pub rank: u8,
    pub score: i32,
    pub outcome: Outcome,
    /// Moves the player made and the time they took (ms).
    pub moves: i64,
    pub move_ms: i64,
    /// Decisions of the player's own (`crate::standing::decisions`).
    pub decisions: u32,
}

/// A game's end: written with its last event.
#[derive(Clone, Debug)]
pub struct Ending {
    pub game_id: String,
    pub ended_at: i64,
    pub seats: i32,
    pub public: bool,
    /// A rated game's pool.
    pub pool: Option<Pool>,
    pub players: Vec<PlayerEnd>,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = ratings)]
pub struct RatingRow {
    pub user_id: String,
    pub pool: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i32,
    pub updated_at: i64,
}

impl RatingRow {
    pub fn rating(&self) -> Rating {
        Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
            games: self.games,
        }
    }
}

#[derive(Clone, Debug, Default, Queryable, Selectable, Insertable)]
#[diesel(table_name = user_stats)]
pub struct StatsRow {
    pub user_id: String,
    pub played: i32,
    pub finished: i32,
    pub won: i32,
    pub resigned: i32,
    pub timed_out: i32,
    pub moves: i64,
    pub move_ms: i64,
    /// Rated games that changed no rating.
    pub uncounted: i32,
}

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = game_results)]
pub struct ResultRow {
    pub user_id: String,
    pub game_id: String,
    pub ended_at: i64,
    pub seats: i32,
    pub rank: i32,
    pub score: i32,
    pub outcome: String,
    pub public: i32,
    pub pool: Option<String>,
    pub rating_before: Option<f64>,
    pub rating_after: Option<f64>,
    pub deviation_after: Option<f64>,
    /// A rated game that changed no rating: why ([`UnratedReason`]'s name).
    pub unrated_reason: Option<String>,
}

/// A profile's rows: the user, their figures, ratings and latest public results.
pub struct ProfileRows {
    pub user: UserRow,
    pub stats: StatsRow,
    pub ratings: Vec<RatingRow>,
    pub recent: Vec<ResultRow>,
}

/// A leaderboard entry.
#[derive(Clone, Debug)]
pub struct BoardRow {
    pub username: String,
    pub rating: RatingRow,
}

/// The key after a leaderboard row: its rating and user id.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardKey {
    pub rating: f64,
    pub user_id: String,
}

/// Writes a game's end: every player's result and figures, and with a rated game that
/// counts ([`crate::standing`]: every player made their decisions, no pair of players is
/// past `pair_limit` rated games within the day) the new ratings, read and written under
/// row locks, so that games ending together for one player each see the other's change.
pub(super) fn record_ending(c: &mut DbConn, e: &Ending, pair_limit: i64) -> Result<(), TxError> {
    let mut before: Vec<Option<Rating>> = vec![None; e.players.len()];
    let mut after: Vec<Option<Rating>> = vec![None; e.players.len()];
    // every row of a player is written in one order (user id), so that two endings
    // sharing players cannot wait on each other
    let mut order: Vec<usize> = (0..e.players.len()).collect();
    order.sort_by(|a, b| e.players[*a].user_id.cmp(&e.players[*b].user_id));
    let mut unrated = None;
    if let Some(pool) = e.pool {
        let decisions: Vec<u32> = e.players.iter().map(|p| p.decisions).collect();
        if standing::too_short(&decisions) {
            unrated = Some(UnratedReason::TooShort);
        } else {
            let mut current: Vec<Rating> = vec![Rating::default(); e.players.len()];
            // every pool's row, whatever the game's pool: the pair limit counts a pair's
            // games in both, so two of their games in different pools wait on each other
            for &i in &order {
                for p in Pool::ALL {
                    let found = lock_rating(c, &e.players[i].user_id, p)?;
                    if p == pool {
                        current[i] = found.unwrap_or_default();
                    }
                }
            }
            let since = e.ended_at - standing::PAIR_WINDOW_MS;
            let full = standing::pair_limit_reached(e.players.len(), pair_limit, |i, j| {
                counted_together(c, &e.players[i].user_id, &e.players[j].user_id, since)
            })?;
            if full {
                unrated = Some(UnratedReason::PairLimit);
            } else {
                let ranked: Vec<(Rating, u8)> = current
                    .iter()
                    .zip(&e.players)
                    .map(|(r, p)| (*r, p.rank))
                    .collect();
                let new = standing::rate(&ranked);
                for &i in &order {
                    write_rating(c, &e.players[i].user_id, pool, &new[i], e.ended_at)?;
                    before[i] = Some(current[i]);
                    after[i] = Some(new[i]);
                }
            }
        }
    }
    for &i in &order {
        let p = &e.players[i];
        diesel::insert_into(game_results::table)
            .values(ResultRow {
                user_id: p.user_id.clone(),
                game_id: e.game_id.clone(),
                ended_at: e.ended_at,
                seats: e.seats,
                rank: i32::from(p.rank),
                score: p.score,
                outcome: p.outcome.as_str().to_string(),
                public: i32::from(e.public),
                pool: e.pool.map(|p| p.as_str().to_string()),
                rating_before: before[i].map(|r| r.rating),
                rating_after: after[i].map(|r| r.rating),
                deviation_after: after[i].map(|r| r.deviation),
                unrated_reason: unrated.map(|r| r.as_str().to_string()),
            })
            .execute(c)?;
        let (finished, resigned, timed_out) = match p.outcome {
            Outcome::Finished => (1, 0, 0),
            Outcome::Resigned => (0, 1, 0),
            Outcome::TimedOut => (0, 0, 1),
        };
        diesel::sql_query(
            "INSERT INTO user_stats (user_id, played, finished, won, resigned, timed_out, \
             moves, move_ms, uncounted) VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (user_id) DO UPDATE SET played = user_stats.played + 1, \
             finished = user_stats.finished + excluded.finished, \
             won = user_stats.won + excluded.won, \
             resigned = user_stats.resigned + excluded.resigned, \
             timed_out = user_stats.timed_out + excluded.timed_out, \
             moves = user_stats.moves + excluded.moves, \
             move_ms = user_stats.move_ms + excluded.move_ms, \
             uncounted = user_stats.uncounted + excluded.uncounted",
        )
        .bind::<Text, _>(&p.user_id)
        .bind::<Integer, _>(finished)
        .bind::<Integer, _>(i32::from(p.rank == 1 && p.outcome == Outcome::Finished))
        .bind::<Integer, _>(resigned)
        .bind::<Integer, _>(timed_out)
        .bind::<BigInt, _>(p.moves)
        .bind::<BigInt, _>(p.move_ms)
        .bind::<Integer, _>(i32::from(unrated.is_some()))
        .execute(c)?;
    }
    Ok(())
}

fn write_rating(
    c: &mut DbConn,
    user_id: &str,
    pool: Pool,
    r: &Rating,
    at: i64,
) -> Result<(), TxError> {
    diesel::sql_query(
        "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, \
         updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, pool) \
         DO UPDATE SET rating = excluded.rating, deviation = excluded.deviation, \
         volatility = excluded.volatility, games = excluded.games, \
         updated_at = excluded.updated_at",
    )
    .bind::<Text, _>(user_id)
    .bind::<Text, _>(pool.as_str())
    .bind::<Double, _>(r.rating)
    .bind::<Double, _>(r.deviation)
    .bind::<Double, _>(r.volatility)
    .bind::<Integer, _>(r.games)
    .bind::<BigInt, _>(at)
    .execute(c)?;
    Ok(())
}

#[derive(QueryableByName)]
struct Count {
    #[diesel(sql_type = BigInt)]
    n: i64,
}

/// The rated games of two players together that counted (changed ratings), in any pool,
/// ended after `since`. Read under the players' rating locks, so that it sees every
/// ending of theirs committed before.
fn counted_together(c: &mut DbConn, a: &str, b: &str, since: i64) -> Result<i64, TxError> {
    // a's results of the day (an index range on `game_results_recent`), each checked for
    // b's row by the primary key
    let row: Count = diesel::sql_query(
        "SELECT COUNT(*) AS n FROM game_results a \
         JOIN game_results b ON b.game_id = a.game_id AND b.user_id = $2 \
         WHERE a.user_id = $1 AND a.ended_at > $3 \
         AND a.pool IS NOT NULL AND a.unrated_reason IS NULL",
    )
    .bind::<Text, _>(a)
    .bind::<Text, _>(b)
    .bind::<BigInt, _>(since)
    .get_result(c)?;
    Ok(row.n)
}

/// A player's rating in a pool, with the row locked for the transaction (a row is made
/// first when there is none, so that the lock always has a row to hold).
fn lock_rating(c: &mut DbConn, user_id: &str, pool: Pool) -> Result<Option<Rating>, TxError> {
    let first = Rating::default();
    diesel::sql_query(
        "INSERT INTO ratings (user_id, pool, rating, deviation, volatility, games, updated_at) \
         VALUES ($1, $2, $3, $4, $5, 0, 0) ON CONFLICT (user_id, pool) DO NOTHING",
    )
    .bind::<Text, _>(user_id)
    .bind::<Text, _>(pool.as_str())
    .bind::<Double, _>(first.rating)
    .bind::<Double, _>(first.deviation)
    .bind::<Double, _>(first.volatility)
    .execute(c)?;
    // a write takes the row lock on Postgres (SQLite holds the database's already)
    diesel::update(
        ratings::table
            .filter(ratings::user_id.eq(user_id))
            .filter(ratings::pool.eq(pool.as_str())),
    )
    .set(ratings::games.eq(ratings::games))
    .execute(c)?;
    let row: Option<RatingRow> = ratings::table
        .filter(ratings::user_id.eq(user_id))
        .filter(ratings::pool.eq(pool.as_str()))
        .select(RatingRow::as_select())
        .first(c)
        .optional()?;
    Ok(row.map(|r| r.rating()))
}

impl Store {
    /// A user's profile rows by username (`None`: no such user, or deleted), with their
    /// `recent` latest results of public games. One connection, four index reads.
    pub async fn profile(
        &self,
        username: String,
        recent: i64,
    ) -> Result<Option<ProfileRows>, StoreError> {
        self.run(move |c| {
            let user: Option<UserRow> = users::table
                .filter(super::lower(users::username).eq(username.to_lowercase()))
                .filter(users::deleted_at.is_null())
                .select(UserRow::as_select())
                .first(c)
                .optional()?;
            let Some(user) = user else { return Ok(None) };
            let stats = user_stats::table
                .find(&user.id)
                .select(StatsRow::as_select())
                .first(c)
                .optional()?
                .unwrap_or_else(|| StatsRow {
                    user_id: user.id.clone(),
                    ..Default::default()
                });
            let ratings: Vec<RatingRow> = ratings::table
                .filter(ratings::user_id.eq(&user.id))
                .filter(ratings::games.gt(0))
                .order(ratings::pool.asc())
                .select(RatingRow::as_select())
                .load(c)?;
            let recent: Vec<ResultRow> = game_results::table
                .filter(game_results::user_id.eq(&user.id))
                .filter(game_results::public.eq(1))
                .order((game_results::ended_at.desc(), game_results::game_id.desc()))
                .limit(recent)
                .select(ResultRow::as_select())
                .load(c)?;
            Ok(Some(ProfileRows {
                user,
                stats,
                ratings,
                recent,
            }))
        })
        .await
    }

    /// A page of a pool's leaderboard: established ratings, best first (ties by user
    /// id), after `after`.
    pub async fn leaderboard(
        &self,
        pool: Pool,
        after: Option<BoardKey>,
        limit: i64,
    ) -> Result<Page<BoardRow, BoardKey>, StoreError> {
        self.run(move |c| {
            let mut q = ratings::table
                .inner_join(users::table)
                .filter(users::deleted_at.is_null())
                .filter(ratings::pool.eq(pool.as_str()))
                // the bound written into the SQL: the partial index `ratings_board`
                // (`deviation <= 110`) matches only a bound it can read, not a parameter
                .filter(diesel::dsl::sql::<diesel::sql_types::Bool>(&format!(
                    "ratings.deviation <= {}",
                    standing::PROVISIONAL_DEVIATION
                )))
                .into_boxed();
            if let Some(k) = &after {
                // `rating <= k` starts the index scan at the key; the rest skips the ties
                // already listed
                q = q.filter(ratings::rating.le(k.rating)).filter(
                    ratings::rating.lt(k.rating).or(ratings::rating
                        .eq(k.rating)
                        .and(ratings::user_id.gt(k.user_id.clone()))),
                );
            }
            let rows: Vec<(RatingRow, String)> = q
                .order((ratings::rating.desc(), ratings::user_id.asc()))
                .limit(limit + 1)
                .select((RatingRow::as_select(), users::username))
                .load(c)?;
            let rows = rows
                .into_iter()
                .map(|(rating, username)| BoardRow { username, rating })
                .collect();
            Ok(super::page::page_of(rows, limit, |r: &BoardRow| BoardKey {
                rating: r.rating.rating,
                user_id: r.rating.user_id.clone(),
            }))
        })
        .await
    }

    /// A page of a user's rated results in a pool, newest first, after `(ended_at,
    /// game_id)`; with `public_only`, the results of public games alone.
    pub async fn rating_history(
        &self,
        user_id: String,
        pool: Pool,
        public_only: bool,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Page<ResultRow, (i64, String)>, StoreError> {
        self.run(move |c| {
            let mut q = game_results::table
                .filter(game_results::user_id.eq(&user_id))
                .filter(game_results::pool.eq(pool.as_str()))
                .into_boxed();
            if public_only {
                q = q.filter(game_results::public.eq(1));
            }
            if let Some((at, game)) = &after {
                // `ended_at <= at` starts the index scan at the key
                q = q.filter(game_results::ended_at.le(*at)).filter(
                    game_results::ended_at.lt(*at).or(game_results::ended_at
                        .eq(*at)
                        .and(game_results::game_id.lt(game.clone()))),
                );
            }
            let rows: Vec<ResultRow> = q
                .order((game_results::ended_at.desc(), game_results::game_id.desc()))
                .limit(limit + 1)
                .select(ResultRow::as_select())
                .load(c)?;
            Ok(super::page::page_of(rows, limit, |r: &ResultRow| {
                (r.ended_at, r.game_id.clone())
            }))
        })
        .await
    }

    /// A user's rating in a pool (`None`: never rated there).
    pub async fn rating_of(
        &self,
        user_id: String,
        pool: Pool,
    ) -> Result<Option<Rating>, StoreError> {
        self.run(move |c| {
            let row: Option<RatingRow> = ratings::table
                .filter(ratings::user_id.eq(&user_id))
                .filter(ratings::pool.eq(pool.as_str()))
                .filter(ratings::games.gt(0))
                .select(RatingRow::as_select())
                .first(c)
                .optional()?;
            Ok(row.map(|r| r.rating()))
        })
        .await
    }

    /// A user's figures (zeros before their first ended game).
    pub async fn stats_of(&self, user_id: String) -> Result<StatsRow, StoreError> {
        self.run(move |c| {
            Ok(user_stats::table
                .find(&user_id)
                .select(StatsRow::as_select())
                .first(c)
                .optional()?
                .unwrap_or_else(|| StatsRow {
                    user_id: user_id.clone(),
                    ..Default::default()
                }))
        })
        .await
    }
}
