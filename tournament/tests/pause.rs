//! The organiser's pause: while the event is paused no round is paired (not even a
//! pairing recorded as data), results still come in, and once it resumes the event
//! goes on as if nothing had happened.

mod common;

use common::{swiss, Sim};
use tilepost_tournament::*;

fn paused(reason: &str) -> Event {
    Event::TournamentPaused {
        reason: reason.into(),
    }
}

#[test]
fn a_paused_event_pairs_nothing_until_it_resumes() {
    let mut sim = Sim::new(Config::single(swiss(3, 1, 2)), 11);
    sim.register(6);
    let round_one = sim.pair();
    sim.push(paused("the server moves"));
    assert!(sim.state.is_paused());
    // the round's games still end and are recorded
    sim.play_out();
    assert!(sim.state.pending_games().is_empty());
    // no pairing while paused, neither computed nor recorded
    assert_eq!(sim.state.next_pairing(1).err(), Some(Error::Paused));
    let mut shadow = sim.state.clone();
    let mut other = Sim::new(Config::single(swiss(3, 1, 2)), 11);
    other.register(6);
    let p = other.state.next_pairing(5).expect("a pairing");
    assert_eq!(
        shadow.apply(&p.into_event()).err(),
        Some(Error::Paused),
        "a recorded pairing is refused too"
    );
    // pausing twice, or resuming what is not paused, is refused
    assert_eq!(
        sim.state.clone().apply(&paused("again")),
        Err(Error::Paused)
    );
    sim.push(Event::TournamentResumed {});
    assert!(!sim.state.is_paused());
    assert_eq!(
        sim.state.clone().apply(&Event::TournamentResumed {}),
        Err(Error::NotPaused)
    );
    assert_eq!(
        sim.state.clone().apply(&paused("  ")),
        Err(Error::NoReason),
        "a pause needs a reason"
    );
    // the event goes on to its end, and replays to the same state
    let round_two = sim.pair();
    assert_eq!(round_two.round, round_one.round + 1);
    sim.play_out();
    sim.run_stage();
    assert!(sim.state.is_finished());
    assert_eq!(
        sim.state.clone().apply(&paused("late")),
        Err(Error::Finished)
    );
    sim.check_replay();
    assert_eq!(sim.repeats(), 0);
}
