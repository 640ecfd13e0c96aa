//! What the server does for an event on its own: the results of ended games, the round
//! cap's decisions, stage ends and the next rounds ([`Tournaments::advance`]), events
//! that reach their start date, and the sweep that finds the events with something to
//! do, so that no event waits for nobody.

use super::*;

impl Tournaments<'_> {
    /// Records what the server decides on its own (see `progress`): results of ended
    /// games, the round cap's decisions when the round's deadline has passed, stage
    /// ends and the next round. Returns whether anything was written.
    pub async fn advance(&self, id: &str, now: i64) -> Result<bool, TournamentError> {
        let Some(row) = self.store.tournament(id.to_string()).await? else {
            return Err(TournamentError::NotFound);
        };
        let settings = settings_of(&row).map_err(TournamentError::Corrupt)?;
        if row.status() == Some(TournamentStatus::Registering) {
            return self.start_on_date(id, &settings, now).await;
        }
        if row.status() != Some(TournamentStatus::Running) {
            return Ok(false);
        }
        // a paused event applies no cap: its round's deadline moves out when it resumes
        let capped = match row.round_deadline {
            Some(d) if d <= now && row.paused_at.is_none() => {
                self.cap_decisions(&row, &settings, now).await?
            }
            _ => HashMap::new(),
        };
        let notifier = self.notifier.clone();
        let capped_for_tx = capped.clone();
        let (wrote, cap_applied) = self
            .store
            .tournament_write(id.to_string(), now, move |ctx| {
                if ctx.row.status() != Some(TournamentStatus::Running) {
                    return Ok::<_, TournamentError>((TournamentWrite::default(), (false, false)));
                }
                // (paused since the row was read: the cap waits)
                let cap = if ctx.row.paused_at.is_some() {
                    HashMap::new()
                } else {
                    capped_for_tx
                };
                let (mut state, settings) = state_of(ctx)?;
                let mut w = TournamentWrite::default();
                progress(&mut state, &settings, ctx, &mut w, &cap, &notifier, now)?;
                let wrote = !w.is_empty();
                Ok((w, (wrote, wrote && !cap.is_empty())))
            })
            .await??;
        if cap_applied && settings.config.round_cap.decision == CapDecision::Forfeit {
            // a game decided at the cap by forfeit ends: its forfeiting players leave it
            self.end_forfeited(&capped, now).await;
        }
        Ok(wrote)
    }

    /// The start date has come: the event starts with at least 2 players and ends
    /// without a round with fewer (no event waits for nobody).
    async fn start_on_date(
        &self,
        id: &str,
        settings: &Settings,
        now: i64,
    ) -> Result<bool, TournamentError> {
        if settings.starts_at.is_none_or(|at| at > now) {
            return Ok(false);
        }
        let notifier = self.notifier.clone();
        self.store
            .tournament_write(id.to_string(), now, move |ctx| {
                if ctx.row.status() != Some(TournamentStatus::Registering) {
                    return Ok::<_, TournamentError>((TournamentWrite::default(), false));
                }
                let (mut state, settings) = state_of(ctx)?;
                let mut w = TournamentWrite::default();
                let active = state.players().iter().filter(|p| !p.withdrawn).count();
                if active >= 2 {
                    begin(&mut state, &settings, ctx, &mut w, &notifier, now)?;
                } else {
                    w.status = Some(TournamentStatus::Ended);
                    w.notices = notices::not_held(&state, ctx, &notifier, now);
                }
                if w.next_round_at.is_none() {
                    w.next_round_at = Some(None);
                }
                Ok((w, true))
            })
            .await?
    }

    /// The results of the current round's unfinished games at the round cap: scored as
    /// if they ended now, or a forfeit of the player who used the most time (the sum of
    /// their moves' times, the turn they are on counted up to now), the others ranked
    /// by their score now.
    async fn cap_decisions(
        &self,
        row: &TournamentRow,
        settings: &Settings,
        now: i64,
    ) -> Result<HashMap<String, GameResult>, TournamentError> {
        let mut out = HashMap::new();
        let Some((_, rows)) = self.store.tournament_with_log(row.id.clone()).await? else {
            return Ok(out);
        };
        let state = replay(&rows).map_err(TournamentError::Corrupt)?;
        let decisions = Decisions {
            store: self.store,
            notifier: self.notifier,
            replays: self.replays,
        };
        let pending = state.pending_games();
        let mut rounds: Vec<(i32, i32)> = pending
            .iter()
            .map(|p| (p.stage as i32, p.round as i32))
            .collect();
        rounds.dedup();
        let games = self
            .store
            .tournament_games_of(row.id.clone(), rounds)
            .await?;
        for p in pending {
            let Some(seats) = table_seats(&state, p.stage, p.round, p.table) else {
                continue;
            };
            let key = (
                p.stage as i32,
                p.round as i32,
                p.table as i32,
                p.game as i32,
            );
            let Some((game_id, status)) = games.get(&key).cloned() else {
                continue;
            };
            if status != GameStatus::Active {
                continue;
            }
            let (data, game) = match decisions.current(&game_id).await {
                Ok(x) => x,
                Err(e) => {
                    tracing::warn!(game = %game_id, cause = ?e, "a capped game cannot be read");
                    continue;
                }
            };
            let user_of_seat = |s: usize| {
                data.seats
                    .iter()
                    .find(|x| x.seat == s as i32)
                    .map(|x| x.user_id.clone())
            };
            let by_user = |values: &[i32]| -> HashMap<String, i32> {
                values
                    .iter()
                    .enumerate()
                    .filter_map(|(i, v)| user_of_seat(i).map(|u| (u, *v)))
                    .collect()
            };
            let result = match settings.config.round_cap.decision {
                CapDecision::ScoreIfEndedNow => {
                    let scores = by_user(&game.final_scores_now());
                    GameResult {
                        scores: seats
                            .iter()
                            .map(|u| i64::from(scores.get(u).copied().unwrap_or(0)))
                            .collect(),
                        decision: Some(TDecision::ScoreIfEndedNow),
                    }
                }
                CapDecision::Forfeit => {
                    let current: Vec<i32> = game.players().iter().map(|p| p.score).collect();
                    let scores = by_user(&current);
                    let log = self
                        .store
                        .events_upto(game_id.clone(), data.game.version)
                        .await?;
                    let mut steps: Vec<crate::standing::Step> = log
                        .iter()
                        .map(|r| crate::standing::Step {
                            actor: if r.decided_by.is_none() {
                                r.actor_id.clone()
                            } else {
                                None
                            },
                            decider: None,
                            at: r.created_at,
                        })
                        .collect();
                    // the turn being played counts up to now
                    steps.push(crate::standing::Step {
                        actor: data.game.current_user_id.clone(),
                        decider: None,
                        at: now,
                    });
                    let times = crate::standing::move_times(&steps);
                    let used = |u: &String| times.get(u).map(|t| t.1).unwrap_or(0);
                    let slowest = seats
                        .iter()
                        .enumerate()
                        .max_by_key(|(i, u)| (used(u), usize::MAX - i))
                        .map(|(i, _)| i as u8)
                        .unwrap_or(0);
                    GameResult {
                        scores: seats
                            .iter()
                            .map(|u| i64::from(scores.get(u).copied().unwrap_or(0)))
                            .collect(),
                        decision: Some(TDecision::Forfeit {
                            seats: vec![slowest],
                        }),
                    }
                }
            };
            out.insert(game_id, result);
        }
        Ok(out)
    }

    /// Ends the games decided at the cap by forfeit: their forfeiting players resign.
    async fn end_forfeited(&self, capped: &HashMap<String, GameResult>, now: i64) {
        for (game_id, result) in capped {
            let Some(TDecision::Forfeit { seats }) = &result.decision else {
                continue;
            };
            let Ok(Some(link)) = self.store.tournament_of_game(game_id.clone()).await else {
                continue;
            };
            let Ok(Some((_, rows))) = self.store.tournament_with_log(link.0.clone()).await else {
                continue;
            };
            let Ok(state) = replay(&rows) else { continue };
            let Some(table) = table_seats(&state, link.2 as u32, link.3 as u32, link.4 as u32)
            else {
                continue;
            };
            for s in seats {
                if let Some(user) = table.get(usize::from(*s)) {
                    self.leave(game_id, user, now).await;
                }
            }
        }
    }
}

/// Advances the tournament of a game that may just have ended (nothing when the game is
/// in no tournament). Failures are logged: the sweep records the result later.
pub async fn game_ended(
    store: &Store,
    notifier: &Arc<Notifier>,
    replays: &ReplayCache,
    game_id: &str,
    now: i64,
) {
    let link = match store.tournament_of_game(game_id.to_string()).await {
        Ok(Some(l)) => l,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(game = %game_id, cause = %e, "tournament of a game unreadable");
            return;
        }
    };
    let t = Tournaments {
        store,
        notifier,
        replays,
    };
    if let Err(e) = t.advance(&link.0, now).await {
        tracing::warn!(tournament = %link.0, cause = ?e, "tournament not advanced after a game");
    }
}

/// One pass over the tournaments that need the server: ended games without a recorded
/// result, rounds past their cap, rounds whose date has come. Returns how many were
/// advanced.
pub async fn sweep(
    store: &Store,
    notifier: &Arc<Notifier>,
    replays: &ReplayCache,
    now: i64,
) -> Result<usize, StoreError> {
    let ids = store.due_tournaments(now, 100).await?;
    let t = Tournaments {
        store,
        notifier,
        replays,
    };
    let mut n = 0;
    let mut seen = HashSet::new();
    for id in ids {
        if !seen.insert(id.clone()) {
            continue;
        }
        match t.advance(&id, now).await {
            Ok(true) => n += 1,
            Ok(false) => {}
            Err(TournamentError::Store(e)) => return Err(e),
            Err(e) => tracing::error!(tournament = %id, cause = ?e, "tournament not advanced"),
        }
    }
    if n > 0 {
        notifier.wake();
    }
    Ok(n)
}
