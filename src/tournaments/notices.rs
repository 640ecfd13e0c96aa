//! Who hears what when an event moves on: the players of a round just paired (their
//! table, opponents and games, or their bye), the players of a stage just ended
//! (qualified or out, with their rank), every player when the event finishes (the
//! winner and their place). Worked out here from the log's new events; written by
//! `crate::notify::tournament` once the store has read the players' accounts in the
//! same transaction.

use std::collections::HashMap;
use std::sync::Arc;

use tilepost_tournament::{Event, Format, State};

use crate::notify::tournament::{self as message, Seat};
use crate::notify::Notifier;
use crate::store::{NewTournamentGame, Notices, SeatInfo, TournamentCtx};

/// What the new events did, in order.
pub(super) enum Happened {
    /// A round paired (the `round_paired` event).
    Paired(Event),
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
    let (id, name) = (ctx.row.id.clone(), ctx.row.name.clone());
    let notifier = notifier.clone();
    Some(Notices {
        users,
        build: Box::new(move |accounts: &HashMap<String, SeatInfo>| {
            let ev = message::Event {
                id: &id,
                name: &name,
            };
            let name_of = |p: &str| accounts.get(p).map(|a| a.username.as_str()).unwrap_or("?");
            out.iter()
                .filter_map(|n| {
                    let to_id = match n {
                        Notice::Round { to, .. }
                        | Notice::Stage { to, .. }
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
                            message::round_started(&notifier, to, &ev, (*stage, *round), &seat, now)
                        }
                        Notice::Stage {
                            stage,
                            rank,
                            count,
                            qualified,
                            ..
                        } => message::stage_ended(
                            &notifier,
                            to,
                            &ev,
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
                            &notifier,
                            to,
                            &ev,
                            name_of(winner),
                            (*place, *count),
                            now,
                        ),
                    })
                })
                .collect()
        }),
    })
}
