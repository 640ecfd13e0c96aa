//! The status columns, typed: each enum is the one place that spells the names stored in
//! its column (and, where the API shows the status, the names on the wire).

/// A status column's enum: `as_str` spells the stored name, `from_column` reads it back.
macro_rules! column_enum {
    ($(#[$doc:meta])* $name:ident { $($(#[$vdoc:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        $(#[$doc])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
            utoipa::ToSchema,
        )]
        #[serde(rename_all = "snake_case")]
        pub enum $name {
            $($(#[$vdoc])* $variant),+
        }

        impl $name {
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The name stored in the column (and used on the wire).
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text),+
                }
            }

            /// The status stored as `s`.
            pub fn from_column(s: &str) -> Option<$name> {
                $name::ALL.iter().copied().find(|v| v.as_str() == s)
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

// `games.status`
column_enum! {
    /// Where a game is in its life.
    GameStatus {
        /// Waiting for players.
        Open => "open",
        Active => "active",
        Finished => "finished",
    }
}

// `games.visibility`
column_enum! {
    /// Who may see a game.
    Visibility {
        /// Anyone may read it; it is listed.
        Public => "public",
        /// Its players (and the players invited to it) alone may read it; it is in no
        /// public list or lobby, and everyone else gets `404`.
        Private => "private",
    }
}

// `games.assistance`
column_enum! {
    /// What a game's analysis (`GET /v1/games/{id}/analysis`) shows while it runs; once
    /// it is over, everything, to everyone.
    Assistance {
        /// The score if the game ended now, the tile tracker, the open features with
        /// their chances, the fields.
        Full => "full",
        /// The score if the game ended now and the tile tracker only.
        Scores => "scores",
        /// Nothing until the game is over.
        None => "none",
    }
}

// `reviews.status`
column_enum! {
    /// Where a finished game's review is.
    ReviewState {
        /// Waiting for the bots' pool.
        Queued => "queued",
        /// Being judged by a worker.
        Running => "running",
        Done => "done",
        /// It could not be made.
        Failed => "failed",
    }
}

// `seeks.status`
column_enum! {
    /// Where a seek is in its life.
    SeekStatus {
        /// Looking for players (until it expires).
        Seeking => "seeking",
        /// Every seat taken: the seek became a game.
        Full => "full",
        /// Open until its time ran out (never stored: an open seek past its expiry).
        Expired => "expired",
    }
}

// `game_results.outcome`
column_enum! {
    /// How a player's part in an ended game ended.
    Outcome {
        /// Played to the end.
        Finished => "completed",
        Resigned => "resigned",
        TimedOut => "timed_out",
    }
}

// `game_invites.status`
column_enum! {
    /// An invitation's answer, as stored.
    InviteStatus {
        /// Not answered yet: the seat is reserved.
        Pending => "pending",
        Accepted => "accepted",
        Declined => "declined",
    }
}

column_enum! {
    /// An invitation as the API shows it: the stored answer, or `lapsed` when nobody
    /// answered before the game started.
    InvitationState {
        /// Not answered yet: the seat is reserved.
        Pending => "pending",
        Accepted => "accepted",
        Declined => "declined",
        /// Not answered before the game started.
        Lapsed => "lapsed",
    }
}

// `outbox.status`; while the SQLite worker fans a batch out, the column briefly holds
// its claim token instead.
column_enum! {
    /// An outbox message's progress.
    OutboxStatus {
        /// Not yet turned into deliveries.
        Pending => "pending",
        /// Turned into one delivery per endpoint.
        Dispatched => "dispatched",
    }
}

// `webhook_deliveries.status`
column_enum! {
    /// A webhook delivery's progress.
    DeliveryStatus {
        /// Due now or at `next_attempt_at`.
        Pending => "pending",
        /// Claimed by a worker, which is posting it.
        Sending => "sending",
        Delivered => "delivered",
        /// Given up (too many attempts, or the endpoint was disabled).
        Failed => "failed",
    }
}

// `tournaments.status`
column_enum! {
    /// Where a tournament is in its life.
    TournamentStatus {
        /// Taking registrations; no round paired yet.
        Registering => "registering",
        /// Rounds are being played.
        Running => "running",
        /// Its last stage has finished: the standings are final.
        Ended => "ended",
    }
}

impl InvitationState {
    /// How an invitation stored as `stored` reads once the game has (or has not) started.
    pub fn of(stored: InviteStatus, started: bool) -> InvitationState {
        match stored {
            InviteStatus::Pending if started => InvitationState::Lapsed,
            InviteStatus::Pending => InvitationState::Pending,
            InviteStatus::Accepted => InvitationState::Accepted,
            InviteStatus::Declined => InvitationState::Declined,
        }
    }
}

// `game_events.decided_by`
column_enum! {
    /// Who took a decision the server recorded on a player's behalf.
    DecidedBy {
        /// The decision had one legal option.
        System => "system",
        /// The player's standing order for that kind of decision.
        StandingOrder => "standing_order",
        /// The player's conditional turn for the tile drawn.
        Plan => "plan",
    }
}

impl DecidedBy {
    /// Whether a decision the server took this way is still its player's own (the
    /// ratings count a player's own decisions, docs/players.md): one their standing
    /// orders or conditional turns took, which they set up; not one that had a single
    /// legal option.
    pub fn players_own(self) -> bool {
        match self {
            DecidedBy::StandingOrder | DecidedBy::Plan => true,
            DecidedBy::System => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_and_plans_are_the_players_own_decisions_a_forced_one_is_not() {
        assert!(DecidedBy::StandingOrder.players_own());
        assert!(DecidedBy::Plan.players_own());
        assert!(!DecidedBy::System.players_own());
    }
}
