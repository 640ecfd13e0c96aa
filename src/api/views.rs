//! Conversions between engine types, store records and DTOs (actions need none: the API
//! reads and writes the engine's own). The hidden information (seed, future pile, a
//! sandbox game's tile order) never reaches a DTO.

use tilepost_engine::{catalog, Effect, Event, FigureKind, Game, Phase, RankEntry};

use serde_json::{json, Value};

use super::dto::*;
use super::error::ApiError;
use crate::clock::rfc3339;
use crate::store::{EventRow, GameRow, SeatInfo, UserRow};
use tilepost_engine::{Expansion, Pos};

/// Seat colours, the colour-blind-safe Okabe-Ito palette of the board pictures.
pub const COLOURS: [&str; 6] = [
    "orange",
    "sky_blue",
    "bluish_green",
    "yellow",
    "blue",
    "vermillion",
];

pub fn colour(seat: u8) -> String {
    COLOURS
        .get(seat as usize)
        .copied()
        .unwrap_or("grey")
        .to_string()
}

fn seat_user(seats: &[SeatInfo], seat: u8) -> (String, String) {
    seats
        .iter()
        .find(|s| s.seat == seat as i32)
        .map(|s| (s.user_id.clone(), s.username.clone()))
        .unwrap_or_default()
}

/// The seat of the signed-in caller `viewer` in this game, if they hold one.
pub fn viewer_seat(seats: &[SeatInfo], viewer: Option<&str>) -> Option<u8> {
    let viewer = viewer?;
    seats
        .iter()
        .find(|s| s.user_id == viewer && s.seat >= 0)
        .map(|s| s.seat as u8)
}

/// Whether the pending decision's options may be shown to the caller at `seat`: always,
/// but with the house rule `tiles_in_hand` a tile decision lists the hand, which is its
/// player's alone.
pub fn options_visible(game: &Game, seat: Option<u8>) -> bool {
    game.hand_sizes().is_empty()
        || game.phase() != Phase::PlaceTile
        || game.pending().is_some_and(|p| Some(p.player) == seat)
}

pub fn pending_view(game: &Game, seats: &[SeatInfo]) -> Option<PendingView> {
    let p = game.pending()?;
    if p.phase == Phase::GameOver {
        return None;
    }
    let kind = p.phase.name().to_string();
    let (user_id, username) = seat_user(seats, p.player);
    Some(PendingView {
        seat: p.player,
        user_id,
        username,
        kind,
        tile: p.tile.map(|t| catalog().get(t).id.clone()),
    })
}

fn ranking_view(r: &[RankEntry], seats: &[SeatInfo]) -> Vec<RankView> {
    r.iter()
        .map(|e| RankView {
            seat: e.player,
            username: seat_user(seats, e.player).1,
            score: e.score,
            rank: e.rank,
        })
        .collect()
}

/// The state view as the signed-in caller `viewer` (if any) may see it; `game` is the
/// replayed game once it has started. With the house rule `tiles_in_hand` every player
/// shows the size of their hand and the caller alone sees their own tiles.
pub fn game_view(
    row: &GameRow,
    seats: &[SeatInfo],
    game: Option<&Game>,
    viewer: Option<&str>,
) -> GameView {
    let status = row.status;
    let mut players: Vec<PlayerView> = seats
        .iter()
        .map(|s| PlayerView {
            seat: s.seat as u8,
            user_id: s.user_id.clone(),
            username: s.username.clone(),
            colour: colour(s.seat as u8),
            bot: s.bot.clone(),
            score: 0,
            supply: Supply::new(),
            active: true,
            goods: None,
            gold: None,
            abbey: None,
            track: None,
            robber: None,
            hand: None,
        })
        .collect();
    let mut board = Vec::new();
    let mut tiles_left = 0;
    let mut by_type = Vec::new();
    let mut pending = None;
    let mut hand = None;
    let mut ranking = None;
    if let Some(g) = game {
        for (i, ps) in g.players().iter().enumerate() {
            if let Some(p) = players.iter_mut().find(|p| p.seat as usize == i) {
                p.score = ps.score;
                p.active = ps.active;
                p.supply = FigureKind::ALL
                    .iter()
                    .filter(|k| ps.supply[**k as usize] > 0)
                    .map(|k| (k.id().to_string(), ps.supply[*k as usize] as u32))
                    .collect();
                let on = |e| g.expansions().contains(e);
                if on(Expansion::TradersBuilders) {
                    p.goods = Some(GoodsView {
                        wine: ps.goods[0] as u32,
                        grain: ps.goods[1] as u32,
                        cloth: ps.goods[2] as u32,
                    });
                }
                if on(Expansion::GoldMines) {
                    p.gold = Some(ps.gold as u32);
                }
                if on(Expansion::AbbeyMayor) {
                    p.abbey = Some(ps.abbey);
                }
                if on(Expansion::Messages) {
                    p.track = Some(g.track(i as u8).to_vec());
                } else if on(Expansion::Robbers) {
                    p.track = Some(vec![g.track(i as u8)[0]]);
                }
                if on(Expansion::Robbers) {
                    p.robber = Some(g.robber(i as u8));
                }
                p.hand = g.hand_sizes().get(i).map(|n| *n as u32);
            }
        }
        let b = g.board();
        board = b
            .tiles()
            .iter()
            .map(|t| BoardTile {
                x: t.pos.x,
                y: t.pos.y,
                tile: catalog().get(t.tile).id.clone(),
                rotation: t.rotation.degrees(),
                figures: Vec::new(),
                neutral: Vec::new(),
                ingots: None,
                ferry: None,
            })
            .collect();
        if g.expansions().contains(Expansion::GoldMines) {
            for bt in board.iter_mut() {
                let n = g.ingots_at(Pos::new(bt.x, bt.y));
                if n > 0 {
                    bt.ingots = Some(n as u32);
                }
            }
        }
        for m in [MagicFigure::Mage, MagicFigure::Witch] {
            if let Some(seg) = g.magic_figure(m) {
                let pt = b.tiles()[b.seg_tile(seg)];
                let tt = pt.tile_type();
                let spot = tt.spot_name(tt.canonical_spot(pt.rotation, b.seg_feature(seg)));
                if let Some(bt) = board
                    .iter_mut()
                    .find(|t| t.x == pt.pos.x && t.y == pt.pos.y)
                {
                    bt.neutral.push(NeutralOnBoard { figure: m, spot });
                }
            }
        }
        for f in g.ferries() {
            let ti = f.tile as usize;
            let pos = b.tiles()[ti].pos;
            let jetties = g.jetties(ti);
            let side = |s: u16| {
                jetties
                    .iter()
                    .find(|j| j.1 == s)
                    .map(|j| j.0.name().to_string())
                    .unwrap_or_default()
            };
            if let Some(bt) = board.iter_mut().find(|t| t.x == pos.x && t.y == pos.y) {
                bt.ferry = Some(FerryView {
                    from: side(f.a),
                    to: side(f.b),
                });
            }
        }
        for f in &b.figures {
            let (pos, spot) = b.figure_spot(f);
            if let Some(bt) = board.iter_mut().find(|t| t.x == pos.x && t.y == pos.y) {
                let name = b
                    .tile_at(pos)
                    .map(|t| t.tile_type().spot_name(spot))
                    .unwrap_or_default();
                bt.figures.push(FigureOnBoard {
                    seat: f.owner,
                    figure: f.kind,
                    spot: name,
                });
            }
        }
        tiles_left = g.tiles_left() as u32;
        by_type = g
            .tiles_left_by_type()
            .into_iter()
            .map(|(t, c)| TileCount {
                tile: catalog().get(t).id.clone(),
                count: c,
            })
            .collect();
        pending = pending_view(g, seats);
        if !g.hand_sizes().is_empty() {
            hand = viewer_seat(seats, viewer).map(|seat| {
                g.hand(seat)
                    .iter()
                    .map(|t| catalog().get(*t).id.clone())
                    .collect()
            });
        }
        if g.is_over() {
            ranking = Some(ranking_view(g.ranking(), seats));
        }
    }
    let status = match game {
        Some(g) if g.is_over() => GameStatus::Finished,
        Some(_) => GameStatus::Active,
        None => status,
    };
    GameView {
        id: row.id.clone(),
        status,
        version: row.version,
        sandbox: row.tile_order.is_some(),
        rated: row.rated,
        visibility: row.visibility,
        bot_accounts: row.bot_accounts,
        assistance: row.assistance,
        expansions: row.expansions.clone(),
        rules: game.map_or_else(|| row.rules.clone(), |g| g.house_rules().to_values()),
        seats: row.seats as u8,
        creator: seats
            .iter()
            .find(|s| s.user_id == row.creator_id)
            .map(|s| s.username.clone())
            .unwrap_or_default(),
        players,
        board,
        pending,
        tiles_left,
        tiles_left_by_type: by_type,
        hand,
        ranking,
        created_at: rfc3339(row.created_at),
        updated_at: rfc3339(row.updated_at),
        clock: None,
        invitations: Vec::new(),
        on_vacation: Vec::new(),
        tournament: None,
    }
}

/// The placements of the pending tile decision, as the caller at `seat` may see them
/// (with the house rule `tiles_in_hand`, its player's alone: see [`options_visible`]).
pub fn placements_view(game: &Game, seat: Option<u8>) -> Vec<PlacementView> {
    if !options_visible(game, seat) {
        return Vec::new();
    }
    let hands = !game.hand_sizes().is_empty();
    game.placements()
        .into_iter()
        .map(|p| {
            let tt = catalog().get(p.tile);
            PlacementView {
                tile: hands.then(|| tt.id.clone()),
                x: p.pos.x,
                y: p.pos.y,
                rotation: p.rotation.degrees(),
                spots: p
                    .spots
                    .into_iter()
                    .map(|s| SpotView {
                        spot: tt.spot_name(s.spot),
                        feature: tt
                            .features
                            .get(s.feature as usize)
                            .map(|f| f.id.clone())
                            .unwrap_or_default(),
                        figures: s.figures,
                    })
                    .collect(),
            }
        })
        .collect()
}

/// Renames the engine's player indices to the API's seats, recursively.
fn seats_not_players(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(p) = m.remove("player") {
                m.insert("seat".into(), p);
            }
            if let Some(p) = m.remove("players") {
                m.insert("seats".into(), p);
            }
            for (_, x) in m.iter_mut() {
                seats_not_players(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(seats_not_players),
        _ => {}
    }
}

/// A decision as clients see it: the creation without its seed and pile.
pub fn decision(e: &Event) -> Value {
    if let Event::GameCreated {
        players,
        expansions,
        tile_order,
        ..
    } = e
    {
        return json!({
            "type": "game_created",
            "players": players,
            "expansions": expansions,
            "sandbox": tile_order.is_some(),
        });
    }
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let Value::Object(m) = &mut v {
        // nothing secret outside the creation, but keep to an allow-list of shapes
        m.remove("seed");
        m.remove("tile_order");
    }
    seats_not_players(&mut v);
    v
}

/// A derived consequence as the caller at `seat` may see it: a tile drawn into a hand
/// (house rule `tiles_in_hand`) is named to its player alone.
pub fn consequence(e: &Effect, seat: Option<u8>) -> Value {
    let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
    if let (Effect::TileToHand { player, .. }, Value::Object(m)) = (e, &mut v) {
        if Some(*player) != seat {
            m.remove("tile");
        }
    }
    seats_not_players(&mut v);
    v
}

/// A history entry for a stored event with the consequences the engine derived, as
/// `viewer` (the signed-in caller, if any) may see it: that a decision was played from a
/// plan is shown only to the plan's player (plans are private; to everyone else it is
/// the player's decision).
pub fn history_entry(
    row: &EventRow,
    event: &Event,
    effects: &[Effect],
    seats: &[SeatInfo],
    viewer: Option<&str>,
) -> HistoryEntry {
    let actor = event.player().map(|p| {
        let (user_id, username) = seat_user(seats, p);
        ActorView {
            seat: p,
            user_id,
            username,
        }
    });
    HistoryEntry {
        seq: row.seq,
        at: rfc3339(row.created_at),
        actor,
        decided_by: row
            .decided_by
            .as_deref()
            .and_then(crate::store::DecidedBy::from_column)
            .filter(|by| {
                // a plan is its player's alone
                *by != crate::store::DecidedBy::Plan
                    || event
                        .player()
                        .is_some_and(|p| viewer == Some(seat_user(seats, p).0.as_str()))
            }),
        decision: decision(event),
        consequences: effects
            .iter()
            .map(|e| consequence(e, viewer_seat(seats, viewer)))
            .collect(),
    }
}

/// Decodes stored rows into engine events (a row that does not decode is a 500 naming
/// its game).
pub fn decode_events(rows: &[EventRow]) -> Result<Vec<Event>, ApiError> {
    crate::moves::decode_events(rows).map_err(ApiError::internal)
}

pub fn seat_info(u: &UserRow) -> SeatInfo {
    SeatInfo {
        seat: -1,
        user_id: u.id.clone(),
        username: u.username.clone(),
        email: u.email.clone(),
        notify_turn: u.notify_turn != 0,
        notify_finished: u.notify_finished != 0,
        joined_at: u.created_at,
        locale: u.locale.clone(),
        time_zone: u.time_zone.clone(),
        bot: None,
    }
}

/// The account as its owner sees it (without the extras of `GET /v1/users/me`).
pub fn user_view(u: &UserRow) -> UserView {
    UserView {
        id: u.id.clone(),
        username: u.username.clone(),
        email: u.email.clone(),
        email_verified: u.email_verified_at.is_some(),
        bot: u.bot.is_some(),
        digest_hour: u.digest_hour,
        notifications: NotificationPrefs {
            turn: u.notify_turn != 0,
            finished: u.notify_finished != 0,
        },
        locale: u.locale.clone(),
        time_zone: u.time_zone.clone(),
        created_at: rfc3339(u.created_at),
        waiting: None,
        vacation: None,
    }
}
