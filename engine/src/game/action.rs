//! What an accepted action did, as the gate reports it: enough to record the decision
//! event (see [`Game::play_into`]) without the replay path allocating.

use super::*;

/// What an accepted action did, beyond the action itself.
pub(crate) enum Done {
    /// Recorded as it was posted.
    AsPosted,
    /// The drawn tile was placed (the event names it).
    Tile(TileTypeId),
    /// The action's spot names the feature of this segment: recorded by its canonical
    /// name.
    Spot(u16),
    /// A `pass`, declining this.
    Declined(Declined),
    /// Recorded as this action (the option it picked, in the engine's own names).
    As(Action),
}
