//! The organiser's decisions beyond the start: invitations, adjustments (points, a
//! corrected result) and the removal of a player.

use super::*;

/// An organiser's decision is taken from the organiser only, and never once the event
/// has ended.
fn organiser_writes(ctx: &TournamentCtx, by: &str) -> Result<(), TournamentError> {
    if ctx.row.organiser_id != by {
        return Err(TournamentError::NotOrganiser);
    }
    if ctx.row.status() == Some(TournamentStatus::Ended) {
        return Err(TournamentError::Ended);
    }
    Ok(())
}

impl Tournaments<'_> {
    /// The organiser invites `user_id` (`player_invited`).
    pub async fn invite(
        &self,
        id: &str,
        user_id: &str,
        by: &str,
        organiser: &str,
        now: i64,
    ) -> Result<(), TournamentError> {
        if by != organiser {
            return Err(TournamentError::NotOrganiser);
        }
        let user = user_id.to_string();
        self.entry(id, by, now, move |_, _| {
            Ok(Event::PlayerInvited { player: user })
        })
        .await
    }

    /// The organiser's adjustment (`organiser_adjusted`, with the reason the players
    /// see): points in the current stage, or a recorded result replaced. Never once
    /// the event has ended; what the adjustment changes follows at once.
    pub async fn adjust(
        &self,
        id: &str,
        by: &str,
        adjustment: Adjustment,
        reason: String,
        now: i64,
    ) -> Result<(), TournamentError> {
        self.decide(
            id,
            by,
            now,
            |_| Ok(Event::OrganiserAdjusted { adjustment, reason }),
            |_, _, _| {},
        )
        .await
    }

    /// One decision of the organiser's: the event `make` returns (refused as it says),
    /// recorded in their name; `then` adds what the decision changes beyond the log;
    /// and what follows, follows.
    async fn decide(
        &self,
        id: &str,
        by: &str,
        now: i64,
        make: impl FnOnce(&TournamentCtx) -> Result<Event, TournamentError> + Send + 'static,
        then: impl FnOnce(&State, &TournamentCtx, &mut TournamentWrite) + Send + 'static,
    ) -> Result<(), TournamentError> {
        let by = by.to_string();
        let notifier = self.notifier.clone();
        self.store
            .tournament_write(id.to_string(), now, move |ctx| {
                organiser_writes(ctx, &by)?;
                let e = make(ctx)?;
                let (mut state, settings) = state_of(ctx)?;
                let mut w = TournamentWrite::default();
                push(&mut state, &mut w, ctx, e, Some(&by), now)?;
                then(&state, ctx, &mut w);
                follow(&mut state, &settings, ctx, &mut w, &notifier, now)?;
                Ok((w, ()))
            })
            .await?
    }

    /// The organiser removes a player, with a reason: every game they have left in the
    /// round is forfeited (`result_recorded`, a whole undecided match), then
    /// `organiser_adjusted` records the removal, and what follows follows (the next
    /// round, when this one is now over). The player then leaves the running games
    /// whose results were recorded, so that those games end for the others too.
    pub async fn remove(
        &self,
        id: &str,
        by: &str,
        player: &str,
        reason: String,
        now: i64,
    ) -> Result<(), TournamentError> {
        let (by_id, player_id) = (by.to_string(), player.to_string());
        let notifier = self.notifier.clone();
        let running = self
            .store
            .tournament_write(id.to_string(), now, move |ctx| {
                organiser_writes(ctx, &by_id)?;
                let (mut state, settings) = state_of(ctx)?;
                let events = state
                    .removal(&player_id, &reason)
                    .map_err(TournamentError::Refused)?;
                let mut w = TournamentWrite::default();
                let mut running = Vec::new();
                for e in events {
                    let key = match &e {
                        Event::ResultRecorded {
                            stage,
                            round,
                            table,
                            game,
                            ..
                        } => Some((*stage as i32, *round as i32, *table as i32, *game as i32)),
                        _ => None,
                    };
                    let seq = push(&mut state, &mut w, ctx, e, Some(&by_id), now)?;
                    let linked = ctx
                        .open_games
                        .iter()
                        .find(|g| key == Some((g.stage, g.round, g.table_no, g.game_no)));
                    if let Some(g) = linked {
                        w.results.push((g.game_id.clone(), seq));
                        if g.status != GameStatus::Finished {
                            running.push(g.game_id.clone());
                        }
                    }
                }
                follow(&mut state, &settings, ctx, &mut w, &notifier, now)?;
                Ok::<_, TournamentError>((w, running))
            })
            .await??;
        for game_id in running {
            self.leave(&game_id, player, now).await;
        }
        Ok(())
    }

    /// The organiser pauses the running event (`tournament_paused`, with the reason the
    /// players see): no round is paired and no round cap applies until it resumes, and
    /// the clocks of its running games stand still. Moves may still be made, and games
    /// that end are recorded.
    pub async fn pause(
        &self,
        id: &str,
        by: &str,
        reason: String,
        now: i64,
    ) -> Result<(), TournamentError> {
        let (told, notifier) = (reason.clone(), self.notifier.clone());
        self.decide(
            id,
            by,
            now,
            move |ctx| match ctx.row.status() {
                Some(TournamentStatus::Running) => Ok(Event::TournamentPaused {
                    reason: told.clone(),
                }),
                _ => Err(TournamentError::NotRunning),
            },
            move |state, ctx, w| {
                w.paused_at = Some(Some(now));
                w.notices = notices::paused(state, ctx, Some(reason), &notifier, now);
            },
        )
        .await
    }

    /// The organiser resumes the paused event (`tournament_resumed`): the clocks run
    /// again, each turn's deadline moved out by the time it stood still; the round's
    /// cap moves out by the length of the pause; and what waited follows at once (the
    /// next round, a dated round whose date came, the next game of a match).
    pub async fn resume(&self, id: &str, by: &str, now: i64) -> Result<(), TournamentError> {
        let notifier = self.notifier.clone();
        self.decide(
            id,
            by,
            now,
            |_| Ok(Event::TournamentResumed {}),
            move |state, ctx, w| {
                w.paused_at = Some(None);
                w.notices = notices::paused(state, ctx, None, &notifier, now);
                if let (Some(d), Some(p)) = (ctx.row.round_deadline, ctx.row.paused_at) {
                    w.round_deadline = Some(Some(d + (now - p).max(0)));
                }
            },
        )
        .await
    }

    /// `user` leaves a game whose result the event has recorded by rule (a forfeit at
    /// the cap, a removal), so that the game ends for the others too. A failure is
    /// logged: the game's own clock ends it later.
    pub(super) async fn leave(&self, game_id: &str, user: &str, now: i64) {
        let decisions = Decisions {
            store: self.store,
            notifier: self.notifier,
            replays: self.replays,
        };
        let req = Request {
            game_id: game_id.to_string(),
            decision: Decision::Resign {
                user_id: user.to_string(),
            },
            expected_version: None,
            idempotency: None,
            now,
        };
        if let Err(e) = decisions.record(req, |_| Ok(String::new())).await {
            tracing::warn!(game = %game_id, cause = ?e, "a player decided out of a game could not leave it");
        }
    }
}
