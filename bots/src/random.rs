//! The `random` level: a uniformly random listed option.

use tilepost_engine::rng::Rng;
use tilepost_engine::Action;

use crate::{own_options, Bot, SeatView};

/// Picks uniformly among the listed options.
pub struct RandomBot {
    rng: Rng,
}

impl RandomBot {
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: Rng::new(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &'static str {
        "random"
    }

    fn decide(&mut self, view: &SeatView) -> Option<Action> {
        let (_, mut options) = own_options(view)?;
        let i = self.rng.below(options.len() as u64) as usize;
        Some(options.swap_remove(i))
    }
}
