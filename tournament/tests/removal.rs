//! The organiser's removal of a player: every game they have left in the round is
//! forfeited (a whole best-of match), then they are withdrawn, and the event goes on
//! without them.

mod common;

use common::{swiss, Sim};
use tilepost_tournament::*;

fn remove(sim: &mut Sim, player: &str) -> Vec<Event> {
    let events = sim
        .state
        .removal(player, "left the event")
        .expect("removal");
    for e in &events {
        sim.push(e.clone());
    }
    events
}

#[test]
fn a_best_of_three_is_forfeited_whole_and_the_swiss_goes_on() {
    let mut sim = Sim::new(Config::single(swiss(3, 3, 2)), 7);
    sim.register(6);
    let p = sim.pair();
    let table = p
        .tables
        .iter()
        .find(|t| t.seats.contains(&"p001".to_string()))
        .expect("p001 plays")
        .clone();
    let events = remove(&mut sim, "p001");
    // two forfeits decide the match, then the removal
    assert_eq!(events.len(), 3);
    let seat = table.seats.iter().position(|s| s == "p001").expect("seat") as u8;
    for e in &events[..2] {
        let Event::ResultRecorded {
            result, table: t, ..
        } = e
        else {
            panic!("a forfeit first: {e:?}");
        };
        assert_eq!(*t, table.table);
        assert_eq!(
            result.decision,
            Some(Decision::Forfeit { seats: vec![seat] })
        );
    }
    assert!(matches!(
        &events[2],
        Event::OrganiserAdjusted {
            adjustment: Adjustment::PlayerRemoved { .. },
            reason
        } if reason == "left the event"
    ));
    assert!(sim.state.players()[0].withdrawn);
    assert!(sim
        .state
        .pending_games()
        .iter()
        .all(|g| !g.start_order.contains(&"p001".to_string())));
    // the others finish the round; the removed player is never paired again
    sim.play_out();
    while !sim.state.stage_complete() {
        let p = sim.pair();
        assert!(p
            .tables
            .iter()
            .all(|t| !t.seats.contains(&"p001".to_string())));
        assert!(!p.byes.contains(&"p001".to_string()));
        sim.play_out();
    }
    sim.check_replay();
    // removing them again is refused
    assert_eq!(
        sim.state.removal("p001", "again"),
        Err(Error::Withdrawn("p001".into()))
    );
    assert_eq!(
        sim.state.removal("nobody", "x"),
        Err(Error::UnknownPlayer("nobody".into()))
    );
}

#[test]
fn a_removal_between_games_forfeits_nothing() {
    let mut sim = Sim::new(Config::single(swiss(2, 1, 2)), 3);
    sim.register(4);
    sim.pair();
    sim.play_out();
    let events = remove(&mut sim, "p002");
    assert_eq!(events.len(), 1);
    let p = sim.pair();
    assert!(p
        .tables
        .iter()
        .all(|t| !t.seats.contains(&"p002".to_string())));
    sim.check_replay();
}
