//! What happened in a game since a player's last turn, told as a player tells it: "ann
//! placed a city cap", "ann completed a 3-tile city and scored 4", "ben moved a ferry"
//! (no board coordinates: nobody sees them on the board). Built from the log and the
//! effects the engine derived for each event; the webhook's `since_last_turn` keeps the
//! coordinates for programs.

use serde_json::{json, Value};
use tilepost_engine::{Action, Effect, Event, FeatureKind};

use crate::i18n;
use crate::store::SeatInfo;

/// One thing that happened, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A tile placed: `(player, tile id, x, y)`.
    Placed {
        player: String,
        tile: String,
        x: i32,
        y: i32,
    },
    /// A feature completed by `by`'s tile (or abbey): it spans `tiles` tiles, and each of
    /// `scorers` scored `points` (nobody when it held no figure).
    Completed {
        by: String,
        feature: String,
        tiles: usize,
        points: i32,
        scorers: Vec<String>,
    },
    /// Points scored otherwise (an abbot returned, a message, the end of the game):
    /// each of `players` scored `points` for `count` features of the kind.
    Scored {
        players: Vec<String>,
        points: i32,
        feature: String,
        count: u32,
        at_end: bool,
    },
    /// A ferry put on a lake, or moved to another.
    Ferry { player: String, moved: bool },
    /// A message drawn (1 to 8).
    Message { player: String, message: u8 },
    /// A robber took points from a victim.
    Robbed {
        player: String,
        victim: String,
        points: i32,
    },
}

/// What happened since a player's last turn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Since {
    pub items: Vec<Happening>,
}

pub(crate) fn name_of(seats: &[SeatInfo], seat: u8) -> String {
    seats
        .iter()
        .find(|s| s.seat == seat as i32)
        .map(|s| s.username.clone())
        .unwrap_or_else(|| format!("seat {seat}"))
}

/// The index after the last tile `seat` placed (0 when none).
fn after_last_tile(events: &[Event], seat: u8) -> usize {
    events
        .iter()
        .rposition(|e| {
            matches!(e, Event::Decided { player, action: Action::PlaceTile { .. }, .. }
                if *player == seat)
        })
        .map(|i| i + 1)
        .unwrap_or(0)
}

/// Features that a tile completes (the others score only otherwise).
fn completable(f: FeatureKind) -> bool {
    matches!(
        f,
        FeatureKind::Road | FeatureKind::City | FeatureKind::Monastery | FeatureKind::Garden
    )
}

impl Since {
    /// Everything after the last tile `seat` placed (the whole game when none).
    pub fn compute(
        events: &[Event],
        effects: &[Vec<Effect>],
        seat: u8,
        seats: &[SeatInfo],
    ) -> Since {
        let start = after_last_tile(events, seat);
        let mut out = Since::default();
        let mut placer = None;
        for (i, e) in events.iter().enumerate().skip(start) {
            let fx = effects.get(i).map(|v| v.as_slice()).unwrap_or_default();
            out.add(e, fx, seats, &mut placer);
        }
        out
    }

    /// The first of `events` that [`Since::compute`] reads for any of the seats
    /// `0..players`: the events before it (with their effects) can be left out with the
    /// same answers. Of a log's end that starts right after a tile, the same holds.
    pub fn needed_from(events: &[Event], players: u8) -> usize {
        (0..players)
            .map(|seat| after_last_tile(events, seat))
            .min()
            .unwrap_or(0)
    }

    /// The scorings at the end of a game (from the effects of its last event), summed
    /// by player and kind of feature: "ann scored 12 for 2 fields at the end".
    pub fn at_end(effects: &[Effect], seats: &[SeatInfo]) -> Since {
        let mut out = Since::default();
        for fx in effects {
            let Effect::FeatureScored {
                feature,
                points,
                players,
                final_scoring: true,
                ..
            } = fx
            else {
                continue;
            };
            for p in players {
                let who = name_of(seats, *p);
                let found = out.items.iter_mut().find_map(|h| match h {
                    Happening::Scored {
                        players,
                        points,
                        feature: f,
                        count,
                        at_end: true,
                    } if players.len() == 1 && players[0] == who && f == feature.name() => {
                        Some((points, count))
                    }
                    _ => None,
                });
                match found {
                    Some((pts, count)) => {
                        *pts += *points;
                        *count += 1;
                    }
                    None => out.items.push(Happening::Scored {
                        players: vec![who],
                        points: *points,
                        feature: feature.name().to_string(),
                        count: 1,
                        at_end: true,
                    }),
                }
            }
        }
        out
    }

    /// Adds what event `e` (with its effects `fx`) did. `placer` is whoever placed the
    /// turn's tile: a feature completed in the turn's scoring (which follows the figure
    /// decision) is theirs.
    fn add(&mut self, e: &Event, fx: &[Effect], seats: &[SeatInfo], placer: &mut Option<u8>) {
        let Event::Decided {
            player,
            action,
            tile,
            ..
        } = e
        else {
            return;
        };
        let who = name_of(seats, *player);
        match (action, tile) {
            (Action::PlaceTile { x, y, .. }, Some(tile)) => {
                *placer = Some(*player);
                self.items.push(Happening::Placed {
                    player: who.clone(),
                    tile: tile.clone(),
                    x: *x,
                    y: *y,
                })
            }
            (Action::PlaceAbbey { .. }, _) => *placer = Some(*player),
            (Action::PlaceFerry { .. }, _) => self.items.push(Happening::Ferry {
                player: who.clone(),
                moved: false,
            }),
            (Action::MoveFerry { .. }, _) => self.items.push(Happening::Ferry {
                player: who.clone(),
                moved: true,
            }),
            _ => {}
        }
        // scorings that complete nothing: an abbot called back, a message's action
        let completes = !matches!(
            action,
            Action::ReturnAbbot | Action::MessageFeature { .. } | Action::MessageFollower { .. }
        );
        let by = name_of(seats, placer.unwrap_or(*player));
        for f in fx {
            match f {
                Effect::FeatureScored {
                    feature,
                    points,
                    players,
                    tiles,
                    final_scoring: false,
                } => {
                    let scorers: Vec<String> = players.iter().map(|p| name_of(seats, *p)).collect();
                    if completes && completable(*feature) {
                        self.items.push(Happening::Completed {
                            by: by.clone(),
                            feature: feature.name().to_string(),
                            tiles: tiles.len(),
                            points: *points,
                            scorers,
                        });
                    } else if !scorers.is_empty() {
                        self.items.push(Happening::Scored {
                            players: scorers,
                            points: *points,
                            feature: feature.name().to_string(),
                            count: 1,
                            at_end: false,
                        });
                    }
                }
                Effect::MessageDrawn { player, message } => self.items.push(Happening::Message {
                    player: name_of(seats, *player),
                    message: *message,
                }),
                Effect::RobberStole {
                    player,
                    victim,
                    points,
                } => self.items.push(Happening::Robbed {
                    player: name_of(seats, *player),
                    victim: name_of(seats, *victim),
                    points: *points,
                }),
                _ => {}
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The lines in `locale` (HTML-escaped with `html`).
    pub fn lines(&self, locale: &str, html: bool) -> Vec<String> {
        let msg = if html { i18n::html } else { i18n::text };
        let names = |v: &[String]| list(locale, v);
        self.items
            .iter()
            .map(|h| match h {
                Happening::Placed { player, tile, .. } => {
                    let t = i18n::tile_name(locale, tile);
                    msg(
                        locale,
                        "since-placed",
                        &[("player", player.into()), ("tile", (&t).into())],
                    )
                }
                Happening::Completed {
                    by,
                    feature,
                    tiles,
                    points,
                    scorers,
                } => {
                    let what = i18n::text(
                        locale,
                        &format!("completed-{feature}"),
                        &[("tiles", (*tiles as i64).into())],
                    );
                    let who = names(scorers);
                    let args = [
                        ("player", by.into()),
                        ("feature", (&what).into()),
                        ("points", (*points).into()),
                        ("scorers", (&who).into()),
                        ("count", (scorers.len() as i64).into()),
                    ];
                    let key = match scorers.as_slice() {
                        [] => "since-completed-nobody",
                        [one] if one == by => "since-completed",
                        _ => "since-completed-for",
                    };
                    msg(locale, key, &args)
                }
                Happening::Scored {
                    players,
                    points,
                    feature,
                    count,
                    at_end,
                } => {
                    let what = i18n::text(
                        locale,
                        &format!("features-{feature}"),
                        &[("count", i64::from(*count).into())],
                    );
                    let who = names(players);
                    msg(
                        locale,
                        if *at_end {
                            "end-scored"
                        } else {
                            "since-scored"
                        },
                        &[
                            ("player", (&who).into()),
                            ("points", (*points).into()),
                            ("feature", (&what).into()),
                        ],
                    )
                }
                Happening::Ferry { player, moved } => msg(
                    locale,
                    if *moved {
                        "since-ferry-moved"
                    } else {
                        "since-ferry-placed"
                    },
                    &[("player", player.into())],
                ),
                Happening::Message { player, message } => {
                    let what = i18n::text(locale, &format!("message-{message}"), &[]);
                    msg(
                        locale,
                        "since-message",
                        &[("player", player.into()), ("message", (&what).into())],
                    )
                }
                Happening::Robbed {
                    player,
                    victim,
                    points,
                } => msg(
                    locale,
                    "since-robbed",
                    &[
                        ("player", player.into()),
                        ("victim", victim.into()),
                        ("points", (*points).into()),
                    ],
                ),
            })
            .collect()
    }

    /// `since_last_turn` of the webhook: the tiles with their coordinates and the points,
    /// for programs (as before), and the same lines a person reads.
    pub fn json(&self, locale: &str) -> Value {
        let mut tiles = Vec::new();
        let mut points = Vec::new();
        for h in &self.items {
            match h {
                Happening::Placed { player, tile, x, y } => {
                    tiles.push(json!({"player": player, "tile": tile, "x": x, "y": y}))
                }
                Happening::Completed {
                    feature,
                    points: p,
                    scorers,
                    ..
                } => points.extend(
                    scorers
                        .iter()
                        .map(|s| json!({"player": s, "points": p, "feature": feature})),
                ),
                Happening::Scored {
                    players,
                    points: p,
                    feature,
                    ..
                } => points.extend(
                    players
                        .iter()
                        .map(|s| json!({"player": s, "points": p, "feature": feature})),
                ),
                _ => {}
            }
        }
        json!({
            "tiles_placed": tiles,
            "points_scored": points,
            "lines": self.lines(locale, false),
        })
    }
}

/// Names as a list in `locale`: "ann", "ann and ben", "ann, ben and cid".
pub(crate) fn list(locale: &str, names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => i18n::text(
            locale,
            "names-and",
            &[("first", (&init.join(", ")).into()), ("last", last.into())],
        ),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use tilepost_engine::rng::Rng;
    use tilepost_engine::{Expansion, Game, GameConfig};

    use super::*;

    fn seats(n: u8) -> Vec<SeatInfo> {
        (0..n)
            .map(|i| super::super::tests::seat(i32::from(i), &format!("p{i}")))
            .collect()
    }

    /// The end of the log the cache keeps (cut with `needed_from` after each decision,
    /// as the decision service does) tells every seat the same story as the whole log.
    #[test]
    fn the_kept_end_of_the_log_tells_the_same_story() {
        let mut rng = Rng::new(11);
        for g in 0..12 {
            let players = 2 + (g % 4) as u8;
            let config = GameConfig {
                players,
                expansions: Expansion::ALL
                    .into_iter()
                    .filter(|e| e.is_implemented() && rng.below(2) == 0)
                    .collect(),
                tile_order: None,
                seed: rng.next_u64(),
                rules: Default::default(),
            };
            let Ok((mut game, first)) = Game::new(&config) else {
                continue;
            };
            let seats = seats(players);
            let (mut events, mut effects) = (vec![first], vec![Vec::new()]);
            let (mut kept, mut kept_fx) = (events.clone(), effects.clone());
            while let Some(p) = game.pending() {
                let options = game.legal_actions();
                let a = &options[rng.below(options.len() as u64) as usize];
                let out = game.play(p.player, a).expect("a legal action plays");
                for (log, fx) in [(&mut events, &mut effects), (&mut kept, &mut kept_fx)] {
                    log.push(out.event.clone());
                    fx.push(out.effects.clone());
                }
                let from = Since::needed_from(&kept, players);
                kept.drain(..from);
                kept_fx.drain(..from);
                for seat in 0..players {
                    assert_eq!(
                        Since::compute(&kept, &kept_fx, seat, &seats),
                        Since::compute(&events, &effects, seat, &seats),
                        "game {g}, seat {seat}, after event {}",
                        events.len()
                    );
                }
            }
            assert!(kept.len() < events.len(), "game {g}: nothing was left out");
        }
    }

    /// Over random games with every expansion: the story of every window of a game
    /// tells each tile placed, hands out exactly the points the engine scored (none lost,
    /// none twice), names completions only for features a tile completes and only after
    /// a tile was placed, and reads in every locale without a missing message; the end's
    /// summary sums the final scorings.
    #[test]
    fn the_story_is_the_log_told() {
        let mut rng = Rng::new(7);
        let (mut completions, mut at_end) = (0, 0);
        for g in 0..40 {
            let players = 2 + (g % 3) as u8;
            let config = GameConfig {
                players,
                expansions: Expansion::ALL
                    .into_iter()
                    .filter(|e| e.is_implemented() && (g % 2 == 0 || rng.below(2) == 0))
                    .collect(),
                tile_order: None,
                seed: rng.next_u64(),
                rules: Default::default(),
            };
            let Ok((mut game, first)) = Game::new(&config) else {
                continue;
            };
            let seats = seats(players);
            let mut events = vec![first];
            let mut effects: Vec<Vec<Effect>> = vec![Vec::new()];
            while let Some(p) = game.pending() {
                let options = game.legal_actions();
                let a = &options[rng.below(options.len() as u64) as usize];
                let out = game.play(p.player, a).expect("a legal action plays");
                events.push(out.event);
                effects.push(out.effects);
                if events.len() % 7 != 0 && game.pending().is_some() {
                    continue;
                }
                for seat in 0..players {
                    let since = Since::compute(&events, &effects, seat, &seats);
                    let start = events
                        .iter()
                        .rposition(|e| {
                            matches!(e, Event::Decided { player, action: Action::PlaceTile { .. }, .. } if *player == seat)
                        })
                        .map(|i| i + 1)
                        .unwrap_or(0);
                    let placed = events[start..]
                        .iter()
                        .filter(|e| {
                            matches!(
                                e,
                                Event::Decided {
                                    action: Action::PlaceTile { .. },
                                    ..
                                }
                            )
                        })
                        .count();
                    let told = since
                        .items
                        .iter()
                        .filter(|h| matches!(h, Happening::Placed { .. }))
                        .count();
                    assert_eq!(told, placed);
                    // the points, player by player
                    let mut scored: BTreeMap<String, i32> = BTreeMap::new();
                    for fx in &effects[start..] {
                        for f in fx {
                            if let Effect::FeatureScored {
                                points,
                                players,
                                final_scoring: false,
                                ..
                            } = f
                            {
                                for p in players {
                                    *scored.entry(name_of(&seats, *p)).or_default() += points;
                                }
                            }
                        }
                    }
                    let mut in_story: BTreeMap<String, i32> = BTreeMap::new();
                    for h in &since.items {
                        match h {
                            Happening::Completed {
                                points,
                                scorers,
                                feature,
                                ..
                            } => {
                                assert!(["road", "city", "monastery", "garden"]
                                    .contains(&feature.as_str()));
                                completions += 1;
                                for s in scorers {
                                    *in_story.entry(s.clone()).or_default() += points;
                                }
                            }
                            Happening::Scored {
                                points, players, ..
                            } => {
                                for s in players {
                                    *in_story.entry(s.clone()).or_default() += points;
                                }
                            }
                            _ => {}
                        }
                    }
                    scored.retain(|_, v| *v != 0);
                    in_story.retain(|_, v| *v != 0);
                    assert_eq!(in_story, scored, "game {g}, seat {seat}");
                    for loc in i18n::SUPPORTED {
                        for l in since.lines(loc, false) {
                            assert!(
                                !l.contains("Unknown localization") && !l.contains('{'),
                                "{l}"
                            );
                        }
                    }
                }
            }
            // the end: the final scorings summed by player and kind
            let last = effects.last().cloned().unwrap_or_default();
            let end = Since::at_end(&last, &seats);
            let total: i32 = last
                .iter()
                .map(|f| match f {
                    Effect::FeatureScored {
                        points,
                        players,
                        final_scoring: true,
                        ..
                    } => points * players.len() as i32,
                    _ => 0,
                })
                .sum();
            let told: i32 = end
                .items
                .iter()
                .map(|h| match h {
                    Happening::Scored { points, .. } => *points,
                    _ => 0,
                })
                .sum();
            assert_eq!(told, total, "game {g}");
            at_end += told;
            for loc in i18n::SUPPORTED {
                for l in end.lines(loc, true) {
                    assert!(
                        !l.contains("Unknown localization") && !l.contains('{'),
                        "{l}"
                    );
                }
            }
        }
        assert!(completions > 100, "{completions} completions told");
        assert!(at_end > 100, "{at_end} points told at the end");
    }
}
