//! Who hears what when an event moves on: the players of a round just paired (their
//! table, opponents and games, or their bye), a player a knockout match put out while
//! the stage goes on (who beat them, what follows), the players of a stage just ended
//! (qualified or out, with their rank: everyone, those put out earlier included, as
//! their rank and whether they go on are news to them), every player when the event
//! finishes (the winner and their place), the one player of an event that reached its
//! start date alone (it was not held), a player the organiser invites. Worked out here
//! from the log's new events; written by `crate::notify::tournament` once the store has
//! read the accounts in the same transaction.

use std::collections::HashMap;
use std::sync::Arc;

use tilepost_tournament::{Entry, Event, Format, KnockedOut, State};

use crate::notify::tournament::{self as message, Seat};
use crate::notify::Notifier;
use crate::store::{
    NewTournamentGame, Notices, OutboxRow, SeatInfo, TournamentCtx, TournamentStatus,
};

use super::Settings;

/// What the new events did, in order.
pub(super) enum Happened {
    /// A round paired (the `round_paired` event).
    Paired(Event),
    /// A knockout match of this stage put a player out, and the stage goes on.
    KnockedOut { stage: u32, out: KnockedOut },
    /// A stage ended with these qualifiers (player ids).
    StageEnded { stage: u32, qualified: Vec<String> },
    /// The event finished.
    Ended,
}

/// One message, before the accounts are known (players by id).
enum Notice {
    Round {
        to: String,
        stage: u32,
        round: u32,
        seat: SeatOf,
    },
    Out {
        to: String,
        stage: u32,
        out: KnockedOut,
        qualifying: Option<u32>,
    },
    Stage {
        to: String,
        stage: u32,
        rank: u32,
        count: u32,
        qualified: bool,
    },
    Finished {
        to: String,
        winner: String,
        place: u32,
        count: u32,
    },
}

enum SeatOf {
    Table {
        table: u32,
        opponents: Vec<String>,
        games: Vec<String>,
    },
    Bye {
        points: Option<f64>,
    },
}

/// The final order of the event: the last stage's standings, then the players out in
/// earlier stages (later stages first, each by its standings), then anyone left
/// (withdrawn before playing).
pub(super) fn final_order(state: &State) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for stage in (0..state.stages().len()).rev() {
        for s in state.standings_of(stage) {
            if seen.insert(s.player.clone()) {
                out.push(s.player);
            }
        }
    }
    for p in state.players() {
        if seen.insert(p.id.clone()) {
            out.push(p.id.clone());
        }
    }
    out
}

/// The messages of what happened, or `None` when nothing did.
pub(super) fn notices(
    state: &State,
    ctx: &TournamentCtx,
    games: &[NewTournamentGame],
    happened: Vec<Happened>,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Option<Notices> {
    if happened.is_empty() {
        return None;
    }
    let withdrawn: std::collections::HashSet<&str> = state
        .players()
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.id.as_str())
        .collect();
    let mut out = Vec::new();
    for h in happened {
        match h {
            Happened::Paired(Event::RoundPaired {
                stage,
                round,
                tables,
                byes,
            }) => {
                for t in &tables {
                    let mut ids: Vec<(u32, String)> = games
                        .iter()
                        .filter(|g| {
                            (g.stage, g.round, g.table_no)
                                == (stage as i32, round as i32, t.table as i32)
                        })
                        .map(|g| (g.game_no as u32, g.game.id.clone()))
                        .collect();
                    ids.sort();
                    for p in &t.seats {
                        out.push(Notice::Round {
                            to: p.clone(),
                            stage,
                            round,
                            seat: SeatOf::Table {
                                table: t.table,
                                opponents: t.seats.iter().filter(|o| *o != p).cloned().collect(),
                                games: ids.iter().map(|(_, id)| id.clone()).collect(),
                            },
                        });
                    }
                }
                let swiss = state
                    .stages()
                    .get(stage as usize)
                    .is_some_and(|s| matches!(s.config.format, Format::Swiss { .. }));
                for p in byes {
                    out.push(Notice::Round {
                        to: p,
                        stage,
                        round,
                        seat: SeatOf::Bye {
                            points: swiss.then(|| state.config().bye_points().as_f64()),
                        },
                    });
                }
            }
            Happened::Paired(_) => {}
            Happened::KnockedOut { stage, out: k } => {
                // what follows: the next stage's qualifiers, if there is one
                let qualifying =
                    state
                        .config()
                        .stages
                        .get(stage as usize + 1)
                        .map(|s| match s.entry {
                            Entry::Top { count } => count,
                            Entry::Registered => 0,
                        });
                out.push(Notice::Out {
                    to: k.player.clone(),
                    stage,
                    out: k,
                    qualifying,
                });
            }
            Happened::StageEnded { stage, qualified } => {
                let standings = state.standings_of(stage as usize);
                let count = standings.len() as u32;
                let last = stage as usize + 1 >= state.stages().len();
                for s in standings {
                    if last || withdrawn.contains(s.player.as_str()) {
                        // the last stage's end is the event's: `tournament.finished`
                        continue;
                    }
                    out.push(Notice::Stage {
                        qualified: qualified.contains(&s.player),
                        to: s.player,
                        stage,
                        rank: s.rank,
                        count,
                    });
                }
            }
            Happened::Ended => {
                let order = final_order(state);
                let count = order.len() as u32;
                let winner = order.first().cloned().unwrap_or_default();
                for (i, p) in order.iter().enumerate() {
                    if withdrawn.contains(p.as_str()) {
                        continue;
                    }
                    out.push(Notice::Finished {
                        to: p.clone(),
                        winner: winner.clone(),
                        place: i as u32 + 1,
                        count,
                    });
                }
            }
        }
    }
    if out.is_empty() {
        return None;
    }
    let users: Vec<String> = state.players().iter().map(|p| p.id.clone()).collect();
    Some(about_event(
        ctx,
        users,
        notifier,
        move |ev, accounts, notifier| {
            let name_of = |p: &str| accounts.get(p).map_or("?", |a| a.username.as_str());
            out.iter()
                .filter_map(|n| {
                    let to_id = match n {
                        Notice::Round { to, .. }
                        | Notice::Stage { to, .. }
                        | Notice::Out { to, .. }
                        | Notice::Finished { to, .. } => to,
                    };
                    // the server's own players read nothing
                    let to = accounts.get(to_id).filter(|a| a.bot.is_none())?;
                    Some(match n {
                        Notice::Round {
                            stage, round, seat, ..
                        } => {
                            let seat = match seat {
                                SeatOf::Table {
                                    table,
                                    opponents,
                                    games,
                                } => Seat::Table {
                                    table: *table,
                                    opponents: opponents.iter().map(|o| name_of(o)).collect(),
                                    games: games.iter().map(String::as_str).collect(),
                                },
                                SeatOf::Bye { points } => Seat::Bye { points: *points },
                            };
                            message::round_started(notifier, to, ev, (*stage, *round), &seat, now)
                        }
                        Notice::Out {
                            stage,
                            out,
                            qualifying,
                            ..
                        } => message::eliminated(
                            notifier,
                            to,
                            ev,
                            &message::KnockedOut {
                                stage: *stage,
                                round: out.round,
                                bracket: &out.bracket,
                                by: name_of(&out.by),
                                qualifying: *qualifying,
                            },
                            now,
                        ),
                        Notice::Stage {
                            stage,
                            rank,
                            count,
                            qualified,
                            ..
                        } => message::stage_ended(
                            notifier,
                            to,
                            ev,
                            *stage,
                            (*rank, *count),
                            *qualified,
                            now,
                        ),
                        Notice::Finished {
                            winner,
                            place,
                            count,
                            ..
                        } => message::finished(
                            notifier,
                            to,
                            ev,
                            name_of(winner),
                            (*place, *count),
                            now,
                        ),
                    })
                })
                .collect()
        },
    ))
}

/// The message to a player the organiser invited (`player_invited`): who invites them,
/// the event and its start. Computer opponents read nothing.
pub(super) fn invited(
    ctx: &TournamentCtx,
    settings: &Settings,
    player: &str,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Notices {
    let (player, organiser) = (player.to_string(), ctx.row.organiser_id.clone());
    let under_way = ctx.row.status() != Some(TournamentStatus::Registering);
    let (starts_at, invitation_only) = (settings.starts_at, settings.invitation_only);
    let users = vec![player.clone(), organiser.clone()];
    about_event(ctx, users, notifier, move |ev, accounts, notifier| {
        let Some(to) = accounts.get(&player).filter(|a| a.bot.is_none()) else {
            return Vec::new();
        };
        let inv = message::Invitation {
            by: accounts
                .get(&organiser)
                .map_or("?", |a| a.username.as_str()),
            starts_at,
            invitation_only,
            under_way,
        };
        vec![message::invited(notifier, to, ev, &inv, now)]
    })
}

/// The messages to the players of an event that reached its start date with fewer than
/// 2 players and ends without a round: `tournament.finished`, not held (`None`:
/// nobody is registered).
pub(super) fn not_held(
    state: &State,
    ctx: &TournamentCtx,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Option<Notices> {
    to_each_player(state, ctx, notifier, move |n, to, ev, count| {
        message::not_held(n, to, ev, count, now)
    })
}

/// The messages to the players of an event the organiser paused (`reason`) or resumed
/// (`None`): `tournament.paused` or `tournament.resumed`.
pub(super) fn paused(
    state: &State,
    ctx: &TournamentCtx,
    reason: Option<String>,
    notifier: &Arc<Notifier>,
    now: i64,
) -> Option<Notices> {
    to_each_player(state, ctx, notifier, move |n, to, ev, _| {
        message::paused(n, to, ev, reason.as_deref(), now)
    })
}

/// One message to each player still in the event (not withdrawn; computer opponents
/// read nothing): `write` gets the notifier, the reader, the event and how many
/// players there are (`None`: there is nobody).
fn to_each_player<F>(
    state: &State,
    ctx: &TournamentCtx,
    notifier: &Arc<Notifier>,
    write: F,
) -> Option<Notices>
where
    F: Fn(&Notifier, &SeatInfo, &message::Event<'_>, u32) -> OutboxRow + Send + 'static,
{
    let users: Vec<String> = state
        .players()
        .iter()
        .filter(|p| !p.withdrawn)
        .map(|p| p.id.clone())
        .collect();
    if users.is_empty() {
        return None;
    }
    let (to, count) = (users.clone(), users.len() as u32);
    Some(about_event(
        ctx,
        users,
        notifier,
        move |ev, accounts, notifier| {
            to.iter()
                .filter_map(|p| accounts.get(p).filter(|a| a.bot.is_none()))
                .map(|a| write(notifier, a, ev, count))
                .collect()
        },
    ))
}

/// Messages about the event of `ctx` to some of `users`: `write` gets the event, the
/// accounts of `users` (as the store's transaction reads them) and the notifier.
fn about_event<F>(
    ctx: &TournamentCtx,
    users: Vec<String>,
    notifier: &Arc<Notifier>,
    write: F,
) -> Notices
where
    F: FnOnce(&message::Event<'_>, &HashMap<String, SeatInfo>, &Notifier) -> Vec<OutboxRow>
        + Send
        + 'static,
{
    let (id, name) = (ctx.row.id.clone(), ctx.row.name.clone());
    let notifier = notifier.clone();
    Notices {
        users,
        build: Box::new(move |accounts: &HashMap<String, SeatInfo>| {
            let ev = message::Event {
                id: &id,
                name: &name,
            };
            write(&ev, accounts, &notifier)
        }),
    }
}

/// Both sets of messages, `first`'s first.
pub(super) fn and(first: Option<Notices>, then: Option<Notices>) -> Option<Notices> {
    match (first, then) {
        (Some(a), Some(b)) => {
            let mut users = a.users;
            users.extend(b.users);
            users.sort();
            users.dedup();
            let (fa, fb) = (a.build, b.build);
            Some(Notices {
                users,
                build: Box::new(move |accounts: &HashMap<String, SeatInfo>| {
                    let mut out = fa(accounts);
                    out.extend(fb(accounts));
                    out
                }),
            })
        }
        (a, b) => a.or(b),
    }
}
