//! `tilepost seed`: fills a database with realistic data, to measure how every request's
//! cost grows with it (`scripts/scale.py`). Users; games in the states a year of play
//! leaves (most finished, some running with clocks and deadlines, a few open), each with
//! a full log the engine made by playing random legal options; the outbox messages of
//! the last month (turn emails, starts, ends); chat. One user, `busy`, sits in up to `busy_games` running games.
//!
//! Deterministic for a given `--seed`: the same rows (but the ids, which are fresh UUIDs).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::mpsc;
use std::time::Instant;

use tilepost_engine::{Expansion, Game, GameConfig, HouseRules};

use crate::store::{
    ChatRow, ClockRow, EventRow, GameRow, GameStatus, OutboxRow, OutboxStatus, SeedBatch, Store,
    StoreError, UserRow,
};

const DAY: i64 = 86_400_000;
/// The password of every seeded user.
pub const PASSWORD: &str = "seeded password";
/// The user who sits in many running games.
pub const BUSY: &str = "busy";

/// What to seed.
#[derive(Clone, Debug)]
pub struct Options {
    pub games: usize,
    /// Users besides `busy` (default: a fifth of the games, at least 10).
    pub users: usize,
    /// Running games `busy` sits in (when there are that many).
    pub busy_games: usize,
    /// Games per transaction.
    pub batch: usize,
    pub seed: u64,
    /// The time the data is seeded "at" (ms); games are spread over the year before it.
    pub now: i64,
    /// Threads that play games (the writer is one more).
    pub threads: usize,
}

/// What was written, and how long it took.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub users: usize,
    pub games: usize,
    pub finished: usize,
    pub active: usize,
    pub open: usize,
    pub events: usize,
    pub outbox: usize,
    pub chat: usize,
    pub seconds: f64,
}

fn user_id(i: usize) -> String {
    // stable, so that every batch can name any user without a lookup
    format!("00000000-0000-4000-8000-{i:012}")
}

fn username(i: usize) -> String {
    if i == 0 {
        BUSY.to_string()
    } else {
        format!("player{i}")
    }
}

/// The expansion sets games are played with, as often as each is picked.
fn expansions(rng: &mut StdRng) -> Vec<Expansion> {
    match rng.gen_range(0..10) {
        0..=5 => Vec::new(),
        6 => vec![Expansion::River],
        7 => vec![Expansion::InnsCathedrals],
        8 => vec![Expansion::InnsCathedrals, Expansion::TradersBuilders],
        _ => vec![Expansion::Abbot, Expansion::InnsCathedrals],
    }
}

/// One game's rows.
fn game(i: usize, o: &Options) -> SeedBatch {
    let mut rng = StdRng::seed_from_u64(o.seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let users = o.users.max(1);
    let players: u8 = match rng.gen_range(0..10) {
        0..=6 => 2,
        7 | 8 => 3,
        _ => 4,
    };
    // the busy player's running games: every eighth game until there are enough
    let busy = i.is_multiple_of(8) && i / 8 < o.busy_games;
    let state = match rng.gen_range(0..100) {
        _ if busy => GameStatus::Active,
        0..=2 => GameStatus::Open,
        3..=14 => GameStatus::Active,
        _ => GameStatus::Finished,
    };
    let mut seated: Vec<usize> = Vec::new();
    if busy {
        seated.push(0);
    }
    while seated.len() < players as usize {
        let u = rng.gen_range(1..=users);
        if !seated.contains(&u) {
            seated.push(u);
        }
    }
    let id = uuid::Uuid::new_v4().to_string();
    let created = o.now - rng.gen_range(DAY..365 * DAY);
    let exps = expansions(&mut rng);
    let mut b = SeedBatch::default();
    let seats_now = if state == GameStatus::Open {
        1
    } else {
        seated.len()
    };
    for (s, u) in seated.iter().take(seats_now).enumerate() {
        b.seats.push((
            id.clone(),
            s as i32,
            user_id(*u),
            created + s as i64 * 60_000,
        ));
    }
    let mut row = GameRow {
        id: id.clone(),
        creator_id: user_id(seated[0]),
        status: state,
        seats: players as i32,
        expansions: exps.iter().map(|e| e.id().to_string()).collect(),
        tile_order: None,
        version: 0,
        current_user_id: None,
        created_at: created,
        updated_at: created,
        turn_started_at: None,
        rules: BTreeMap::new(),
        rated: false,
        visibility: crate::store::Visibility::Public,
        bot_accounts: true,
        assistance: crate::store::Assistance::Full,
    };
    if state == GameStatus::Open {
        b.games.push(row);
        return b;
    }
    let config = GameConfig {
        players,
        expansions: exps,
        tile_order: None,
        seed: rng.gen(),
        rules: HouseRules::default(),
    };
    let Ok((mut g, created_event)) = Game::new(&config) else {
        b.games.push(row);
        return b;
    };
    let mut events = vec![(created_event, None::<usize>)];
    // a running game stops somewhere in its course
    let stop = if state == GameStatus::Active {
        rng.gen_range(2..120)
    } else {
        usize::MAX
    };
    while events.len() < stop {
        let Some(p) = g.pending() else { break };
        let options = g.legal_actions();
        if options.is_empty() {
            break;
        }
        let pick = &options[rng.gen_range(0..options.len())];
        match g.play(p.player, pick) {
            Ok(out) => events.push((out.event, Some(seated[p.player as usize]))),
            Err(_) => break,
        }
    }
    let over = g.is_over();
    let state = if over {
        GameStatus::Finished
    } else {
        GameStatus::Active
    };
    // a decision every few hours (finished games) or days (running ones)
    let step = if over { 3 * 3_600_000 } else { DAY / 2 };
    let span = step * events.len() as i64;
    // a running game's clock (7 in 10 have one) and how long its turn has been waiting:
    // never past its deadline (the sweep of a steady service finds few), and reminded
    // when the reminder is due (24 h before the deadline)
    let clock = (!over && rng.gen_range(0..10) < 7).then(|| [1, 3, 7][rng.gen_range(0..3)]);
    let waiting = match clock {
        Some(days) => rng.gen_range(0..days * DAY * 95 / 100),
        None => rng.gen_range(0..2 * DAY),
    };
    let start = if over {
        created
    } else {
        o.now - span - waiting
    };
    for (n, (e, who)) in events.iter().enumerate() {
        let (kind, version, payload) = e.encode();
        b.events.push(EventRow {
            game_id: id.clone(),
            seq: n as i64 + 1,
            event_type: kind.to_string(),
            event_version: version as i32,
            payload,
            actor_id: who.map(user_id),
            created_at: start + step * n as i64,
            decided_by: None,
        });
    }
    let last = start + step * events.len() as i64;
    row.status = state;
    row.version = events.len() as i64;
    row.created_at = start.min(created);
    row.updated_at = last;
    // the outbox keeps a month of messages (TILEPOST_OUTBOX_RETENTION_DAYS): a game's
    // start and end, and a turn email (about 2.5 kB with its HTML) about every other
    // decision, for what happened within it
    let kept = o.now - 30 * DAY;
    let message = |kind: &str, u: usize, at: i64| {
        OutboxRow {
        id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
        kind: kind.to_string(),
        user_id: user_id(u),
        game_id: Some(id.clone()),
        payload: json!({"type": kind, "timestamp": at, "data": {"game_id": id, "subject": "tilepost", "text": "x".repeat(800), "html": "x".repeat(1700)}}).to_string(),
        status: OutboxStatus::Dispatched.as_str().to_string(),
        attempts: 1,
        next_attempt_at: at,
        delivered_at: Some(at),
        created_at: at,
    }
    };
    if start >= kept {
        for u in &seated {
            b.outbox.push(message("game.started", *u, start));
        }
    }
    for n in (1..events.len()).step_by(2) {
        let at = start + step * n as i64;
        if at >= kept {
            let u = seated[(n / 2) % seated.len()];
            b.outbox.push(message("game.turn_started", u, at));
        }
    }
    if over {
        if last >= kept {
            for u in &seated {
                b.outbox.push(message("game.finished", *u, last));
            }
        }
    } else if let Some(p) = g.pending() {
        let u = seated[p.player as usize];
        row.current_user_id = Some(user_id(u));
        row.turn_started_at = Some(last);
        if let Some(days) = clock {
            // planned as the sweep plans them: the default reminder, unless sent
            let remind_at = last + days * DAY - DAY;
            let sent = remind_at <= o.now;
            b.clocks.push(ClockRow {
                reminded_turn: sent.then_some(last),
                planned_turn: Some(last),
                remind_at: (!sent && days > 1).then_some(remind_at),
                reminded_before: sent.then_some(DAY),
                ..ClockRow::new(
                    id.clone(),
                    crate::correspondence::ClockRule::PerMove { days: days as i32 },
                )
            });
        }
    }
    if rng.gen_range(0..10) == 0 {
        for n in 0..rng.gen_range(1..6) {
            let u = seated[rng.gen_range(0..seated.len())];
            b.chat.push(ChatRow {
                id: uuid::Uuid::new_v4().to_string(),
                game_id: id.clone(),
                n: n + 1,
                user_id: user_id(u),
                body: "good game".to_string(),
                after_seq: (n + 1).min(row.version),
                created_at: last,
            });
        }
    }
    b.games.push(row);
    b
}

fn users(o: &Options, password_hash: &str) -> Vec<UserRow> {
    (0..=o.users)
        .map(|i| UserRow {
            id: user_id(i),
            username: username(i),
            email: format!("{}@seed.example", username(i)),
            password_hash: password_hash.to_string(),
            notify_turn: 1,
            notify_finished: 1,
            created_at: o.now - 400 * DAY,
            locale: "en".into(),
            time_zone: "UTC".into(),
            email_verified_at: Some(o.now - 400 * DAY),
            deleted_at: None,
            bot: None,
            digest_hour: None,
        })
        .collect()
}

/// Seeds `o.games` games (and their users) into `store`; `progress` hears of every batch.
pub fn run(
    store: &Store,
    o: &Options,
    password_hash: &str,
    progress: impl Fn(&Report),
) -> Result<Report, StoreError> {
    let t = Instant::now();
    let mut report = Report::default();
    let first = SeedBatch {
        users: users(o, password_hash),
        ..SeedBatch::default()
    };
    store.seed(&first)?;
    report.users = first.users.len();
    let (tx, rx) = mpsc::sync_channel::<SeedBatch>(4);
    let threads = o.threads.max(1);
    let batch = o.batch.max(1);
    std::thread::scope(|s| {
        for k in 0..threads {
            let tx = tx.clone();
            s.spawn(move || {
                let mut start = k * batch;
                while start < o.games {
                    let mut b = SeedBatch::default();
                    for i in start..(start + batch).min(o.games) {
                        let g = game(i, o);
                        b.games.extend(g.games);
                        b.seats.extend(g.seats);
                        b.clocks.extend(g.clocks);
                        b.events.extend(g.events);
                        b.outbox.extend(g.outbox);
                        b.chat.extend(g.chat);
                    }
                    if tx.send(b).is_err() {
                        return;
                    }
                    start += threads * batch;
                }
            });
        }
        drop(tx);
        for b in rx {
            store.seed(&b)?;
            report.games += b.games.len();
            for g in &b.games {
                match g.status {
                    GameStatus::Open => report.open += 1,
                    GameStatus::Active => report.active += 1,
                    _ => report.finished += 1,
                }
            }
            report.events += b.events.len();
            report.outbox += b.outbox.len();
            report.chat += b.chat.len();
            report.seconds = t.elapsed().as_secs_f64();
            progress(&report);
        }
        Ok::<_, StoreError>(())
    })?;
    store.analyze()?;
    report.seconds = t.elapsed().as_secs_f64();
    Ok(report)
}
