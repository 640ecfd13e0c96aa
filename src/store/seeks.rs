//! The lobby: seeks (games looking for players), and the game a full seek becomes, made
//! in the transaction that takes its last seat.

use super::conn::lock_user;
use std::collections::HashMap;

use super::conn::transaction;
use diesel::prelude::*;
use diesel::result::Error as DieselError;

use super::schema::{game_clocks, game_seats, games, seek_players, seeks, users};
use super::{
    load_game, AutomationRows, Conflict, DbConn, GameRecord, GameRow, Page, SeatInfo, SeekStatus,
    StartPlan, Store, StoreError, TxError,
};

#[derive(Clone, Debug, Queryable, Selectable, Insertable)]
#[diesel(table_name = seeks)]
pub struct SeekRow {
    pub id: String,
    pub creator_id: String,
    pub seats: i32,
    /// Expansion ids as JSON.
    pub expansions: String,
    /// House rules (the variants that differ) as JSON.
    pub rules: Option<String>,
    pub days_per_move: Option<i32>,
    pub rated: i32,
    pub min_rating: Option<i32>,
    pub max_rating: Option<i32>,
    /// Percent.
    pub min_finish_rate: Option<i32>,
    pub status: String,
    pub game_id: Option<String>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// A seek with its players' names (the creator first, in the order they joined).
#[derive(Clone, Debug)]
pub struct SeekData {
    pub seek: SeekRow,
    pub players: Vec<(String, String)>,
}

/// Who looks at the lobby: their ratings by pool (a player without one counts as 1500)
/// and finish rate in percent (`None`: no game of theirs has ended).
#[derive(Clone, Debug)]
pub struct Seeker {
    pub user_id: String,
    pub base_rating: f64,
    pub expansions_rating: f64,
    pub finish_percent: Option<i32>,
    /// An account marked as a bot (rated seeks do not take one).
    pub bot_account: bool,
}

/// Reads the players of these seeks (id, username), in the order they joined.
fn players_of(
    c: &mut DbConn,
    ids: &[String],
) -> Result<HashMap<String, Vec<(String, String)>>, DieselError> {
    let rows: Vec<(String, String, String)> = seek_players::table
        .inner_join(users::table)
        .filter(seek_players::seek_id.eq_any(ids))
        .order((seek_players::seek_id.asc(), seek_players::position.asc()))
        .select((seek_players::seek_id, users::id, users::username))
        .load(c)?;
    let mut out: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for (seek, id, name) in rows {
        out.entry(seek).or_default().push((id, name));
    }
    Ok(out)
}

fn with_players(c: &mut DbConn, rows: Vec<SeekRow>) -> Result<Vec<SeekData>, StoreError> {
    let ids: Vec<String> = rows.iter().map(|r| r.id.clone()).collect();
    let mut players = players_of(c, &ids)?;
    Ok(rows
        .into_iter()
        .map(|seek| SeekData {
            players: players.remove(&seek.id).unwrap_or_default(),
            seek,
        })
        .collect())
}

/// Whether `who` may join `seek` by its requirements (rating range in the seek's pool,
/// finish rate, bot accounts).
pub fn meets(seek: &SeekRow, who: &Seeker) -> bool {
    let rating = if seek.expansions == "[]" {
        who.base_rating
    } else {
        who.expansions_rating
    };
    seek.min_rating.is_none_or(|m| rating >= f64::from(m))
        && seek.max_rating.is_none_or(|m| rating <= f64::from(m))
        && seek
            .min_finish_rate
            .is_none_or(|m| m == 0 || who.finish_percent.is_some_and(|f| f >= m))
        && !(seek.rated != 0 && who.bot_account)
}

/// Takes an open seek's row lock (a write, so that SQLite queues the other writers too);
/// a seek that is full or expired is `SeekClosed`, one that is not there `NotFound`.
fn lock_open_seek(c: &mut DbConn, id: &str, now: i64) -> Result<(), TxError> {
    let n = diesel::update(
        seeks::table
            .filter(seeks::id.eq(id))
            .filter(seeks::status.eq(SeekStatus::Seeking.as_str()))
            .filter(seeks::expires_at.gt(now)),
    )
    .set(seeks::status.eq(SeekStatus::Seeking.as_str()))
    .execute(c)?;
    if n == 0 {
        let exists: Option<String> = seeks::table
            .find(id)
            .select(seeks::id)
            .first(c)
            .optional()?;
        return Err(TxError::Store(match exists {
            Some(_) => StoreError::Conflict(Conflict::SeekClosed),
            None => StoreError::NotFound,
        }));
    }
    Ok(())
}

impl Store {
    /// Records a new seek with its creator as first player, unless the creator has
    /// `max_open` open seeks already.
    pub async fn create_seek(&self, row: SeekRow, max_open: i64) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                lock_user(c, &row.creator_id)?;
                let open: i64 = seeks::table
                    .filter(seeks::creator_id.eq(&row.creator_id))
                    .filter(seeks::status.eq(SeekStatus::Seeking.as_str()))
                    .filter(seeks::expires_at.gt(row.created_at))
                    .count()
                    .get_result(c)?;
                if open >= max_open {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::SeekLimitReached,
                    )));
                }
                diesel::insert_into(seeks::table).values(&row).execute(c)?;
                diesel::insert_into(seek_players::table)
                    .values((
                        seek_players::seek_id.eq(&row.id),
                        seek_players::user_id.eq(&row.creator_id),
                        seek_players::position.eq(0),
                        seek_players::joined_at.eq(row.created_at),
                    ))
                    .execute(c)?;
                Ok(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// A seek with its players.
    pub async fn seek(&self, id: String) -> Result<Option<SeekData>, StoreError> {
        self.run(move |c| {
            let row: Option<SeekRow> = seeks::table
                .find(&id)
                .select(SeekRow::as_select())
                .first(c)
                .optional()?;
            Ok(with_players(c, row.into_iter().collect())?.pop())
        })
        .await
    }

    /// A page of the open seeks `who` may join at `now`, oldest first, after `(created_at,
    /// id)`: not theirs, not joined, and whose requirements they meet. The requirements
    /// are checked here on the open seeks in order, 1,000 at most per page: a page may
    /// come short (even empty) with a cursor to go on from.
    pub async fn seeks_for(
        &self,
        who: Seeker,
        now: i64,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Page<SeekData, (i64, String)>, StoreError> {
        self.run(move |c| {
            let mut out: Vec<SeekRow> = Vec::new();
            let mut from = after;
            let mut batches = 0;
            // batches of open seeks, filtered here, until the page is full, none is
            // left, or 1,000 were read
            let done = loop {
                let mut q = seeks::table
                    .filter(seeks::status.eq(SeekStatus::Seeking.as_str()))
                    .filter(seeks::expires_at.gt(now))
                    .filter(seeks::creator_id.ne(&who.user_id))
                    .filter(diesel::dsl::not(diesel::dsl::exists(
                        seek_players::table
                            .filter(seek_players::seek_id.eq(seeks::id))
                            .filter(seek_players::user_id.eq(&who.user_id)),
                    )))
                    .into_boxed();
                if let Some((at, id)) = &from {
                    q = q.filter(
                        seeks::created_at
                            .gt(*at)
                            .or(seeks::created_at.eq(*at).and(seeks::id.gt(id.clone()))),
                    );
                }
                let batch: Vec<SeekRow> = q
                    .order((seeks::created_at.asc(), seeks::id.asc()))
                    .limit(200)
                    .select(SeekRow::as_select())
                    .load(c)?;
                let done = batch.len() < 200;
                if let Some(r) = batch.last() {
                    from = Some((r.created_at, r.id.clone()));
                }
                out.extend(batch.into_iter().filter(|s| meets(s, &who)));
                batches += 1;
                if done || out.len() as i64 > limit || batches == 5 {
                    break done;
                }
            };
            let page = if out.len() as i64 > limit || done {
                super::page::page_of(out, limit, |r: &SeekRow| (r.created_at, r.id.clone()))
            } else {
                Page {
                    rows: out,
                    next: from,
                }
            };
            Ok(Page {
                rows: with_players(c, page.rows)?,
                next: page.next,
            })
        })
        .await
    }

    /// A page of the open seeks `user_id` made or joined, oldest first.
    pub async fn my_seeks(
        &self,
        user_id: String,
        now: i64,
        after: Option<(i64, String)>,
        limit: i64,
    ) -> Result<Page<SeekData, (i64, String)>, StoreError> {
        self.run(move |c| {
            let mut q = seeks::table
                .inner_join(seek_players::table)
                .filter(seek_players::user_id.eq(&user_id))
                .filter(seeks::status.eq(SeekStatus::Seeking.as_str()))
                .filter(seeks::expires_at.gt(now))
                .into_boxed();
            if let Some((at, id)) = &after {
                q = q.filter(
                    seeks::created_at
                        .gt(*at)
                        .or(seeks::created_at.eq(*at).and(seeks::id.gt(id.clone()))),
                );
            }
            let rows: Vec<SeekRow> = q
                .order((seeks::created_at.asc(), seeks::id.asc()))
                .limit(limit + 1)
                .select(SeekRow::as_select())
                .load(c)?;
            let page =
                super::page::page_of(rows, limit, |r: &SeekRow| (r.created_at, r.id.clone()));
            Ok(Page {
                rows: with_players(c, page.rows)?,
                next: page.next,
            })
        })
        .await
    }

    /// Withdraws an open seek: it is deleted with its players (the caller checks that it
    /// is the creator's).
    pub async fn cancel_seek(&self, id: String, now: i64) -> Result<(), StoreError> {
        self.run(move |c| {
            transaction(c, |c| {
                lock_open_seek(c, &id, now)?;
                diesel::delete(seek_players::table.filter(seek_players::seek_id.eq(&id)))
                    .execute(c)?;
                diesel::delete(seeks::table.find(&id)).execute(c)?;
                Ok::<_, TxError>(())
            })
            .map_err(StoreError::from)
        })
        .await
    }

    /// Adds `user_id` to an open seek; when that fills it, the seek becomes `game` (its
    /// players seated in the order they joined, its clock set) and the game starts with
    /// the plan of `start`, all in one transaction. Returns the seek after.
    pub async fn join_seek<F>(
        &self,
        id: String,
        user_id: String,
        now: i64,
        game: GameRow,
        start: F,
    ) -> Result<SeekData, StoreError>
    where
        F: FnOnce(&GameRow, &[SeatInfo], &AutomationRows) -> Result<StartPlan, String>
            + Send
            + 'static,
    {
        self.run(move |c| {
            transaction(c, |c| {
                lock_open_seek(c, &id, now)?;
                let seek: SeekRow = seeks::table
                    .find(&id)
                    .select(SeekRow::as_select())
                    .first(c)?;
                let mut players = players_of(c, std::slice::from_ref(&id))?
                    .remove(&id)
                    .unwrap_or_default();
                if players.iter().any(|(u, _)| *u == user_id) {
                    return Err(TxError::Store(StoreError::Conflict(
                        Conflict::AlreadySeated,
                    )));
                }
                diesel::insert_into(seek_players::table)
                    .values((
                        seek_players::seek_id.eq(&id),
                        seek_players::user_id.eq(&user_id),
                        seek_players::position.eq(players.len() as i32),
                        seek_players::joined_at.eq(now),
                    ))
                    .execute(c)
                    .map_err(|e| TxError::Store(super::user_reference(e)))?;
                players.push((user_id.clone(), String::new()));
                if players.len() as i32 >= seek.seats {
                    let record = GameRecord::try_from(&game).map_err(TxError::Store)?;
                    diesel::insert_into(games::table)
                        .values(&record)
                        .execute(c)?;
                    for (seat, (u, _)) in players.iter().enumerate() {
                        diesel::insert_into(game_seats::table)
                            .values((
                                game_seats::game_id.eq(&game.id),
                                game_seats::seat.eq(seat as i32),
                                game_seats::user_id.eq(u),
                                game_seats::joined_at.eq(now),
                            ))
                            .execute(c)?;
                    }
                    if let Some(d) = seek.days_per_move {
                        diesel::insert_into(game_clocks::table)
                            .values((
                                game_clocks::game_id.eq(&game.id),
                                game_clocks::days_per_move.eq(d),
                            ))
                            .execute(c)?;
                    }
                    diesel::update(seeks::table.find(&id))
                        .set((
                            seeks::status.eq(SeekStatus::Full.as_str()),
                            seeks::game_id.eq(Some(&game.id)),
                        ))
                        .execute(c)?;
                    let data = load_game(c, &game.id, false)
                        .map_err(TxError::Store)?
                        .ok_or(TxError::Store(StoreError::NotFound))?;
                    super::start_game_tx(c, &data, now, start)?;
                }
                let seek: SeekRow = seeks::table
                    .find(&id)
                    .select(SeekRow::as_select())
                    .first(c)?;
                Ok(with_players(c, vec![seek]).map_err(TxError::Store)?.pop())
            })
            .map_err(StoreError::from)
            .and_then(|s: Option<SeekData>| s.ok_or(StoreError::NotFound))
        })
        .await
    }
}
