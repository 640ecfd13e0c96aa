//! Delivery safety: a delivery reaches only the address it checked (a name that resolved
//! to a public address when its endpoint was created and resolves inside later is not
//! reached; an internal IP literal is not reached; a redirect is not followed), and an
//! account deleted while its messages are being sent leaves the worker's records
//! consistent.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use serde_json::{json, Value};
use tilepost::clock::Clock;
use tilepost::notify::guard::{self, Lookup};
use tilepost::notify::worker::Worker;
use tilepost::store::{DeliveryRow, EndpointRow};

use crate::common::*;
use crate::notifications::{attempts_of, block, fast, wait_for, with_relay, Receiver};

/// A resolver whose answers the test sets, name by name.
#[derive(Clone, Default)]
struct Names(Arc<Mutex<HashMap<String, Vec<IpAddr>>>>);

impl Names {
    fn point(&self, host: &str, ip: &str) {
        let ip = ip.parse().expect("an address");
        self.0.lock().unwrap().insert(host.to_string(), vec![ip]);
    }
}

impl Lookup for Names {
    fn lookup(&self, host: String) -> BoxFuture<'static, std::io::Result<Vec<IpAddr>>> {
        let ips = self.0.lock().unwrap().get(&host).cloned();
        Box::pin(async move {
            ips.ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, host))
        })
    }
}

/// An endpoint of `user` stored as the API would have stored it (the API's own check
/// looks names up with the system's resolver, which knows no test names).
fn stored_endpoint(app: &TestApp, user: &Client, url: &str) -> String {
    let id = uuid::Uuid::new_v4().to_string();
    let row = EndpointRow {
        id: id.clone(),
        user_id: user.user_id.clone(),
        url: url.to_string(),
        secret: tilepost::notify::sign::new_secret(),
        event_types: json!(["game.started"]).to_string(),
        enabled: 1,
        disabled_reason: None,
        created_at: app.clock.now_ms(),
    };
    block(app.server.state.store.create_endpoint(row, 10)).expect("endpoint stored");
    id
}

/// A worker of the app's store with its own resolver and private-address switch.
fn worker(app: &TestApp, names: &Names, allow_private: bool) -> Worker {
    let st = &app.server.state;
    let mut config = st.config.worker();
    config.webhook_allow_private = allow_private;
    Worker::with_lookup(
        st.store.clone(),
        st.clock.clone(),
        st.notifier.clone(),
        config,
        Arc::new(names.clone()),
    )
}

/// One round of the worker: fan out, claim, send, record.
fn round(w: &Worker) {
    block(w.tick()).expect("a round of the worker");
}

/// The only delivery to an endpoint, with its attempts.
fn only_delivery(app: &TestApp, endpoint_id: &str) -> tilepost::store::DeliveryInfo {
    let mut ds = attempts_of(app, endpoint_id);
    assert_eq!(ds.len(), 1, "one delivery to {endpoint_id}");
    ds.remove(0)
}

/// A name that resolved to a public address when the endpoint was created resolves to
/// 127.0.0.1 at delivery time: the connection's resolver refuses it and the attempt says
/// why. An endpoint whose URL is an internal IP literal (an IPv4-compatible IPv6
/// address, stored before such literals were refused) is not reached either, and is
/// disabled. A `3xx` answer is recorded, its `Location` not followed.
fn delivery_checks_the_address_it_connects_to(kind: Db) {
    let rx = Receiver::start();
    let app = TestApp::with(kind, |c| {
        fast(c);
        // the test runs the worker itself
        c.notify_worker = false;
    });
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    let names = Names::default();
    let by_name = format!("http://hook.test:{}/hook", rx.port);
    let literal = format!("http://[::127.0.0.1]:{}/hook", rx.port);
    // at creation, hook.test is public
    names.point("hook.test", "93.184.216.34");
    let check = |url: &str| {
        let u = guard::parse_url(url).expect("a URL");
        block(guard::check_url_with(&u, false, &names))
    };
    assert_eq!(check(&by_name), Ok(()));
    let e = check(&literal).expect_err("the literal is refused now");
    assert!(e.contains("127.0.0.1, which is loopback"), "{e}");
    let named = stored_endpoint(&app, &ann, &by_name);
    let lit = stored_endpoint(&app, &ann, &literal);
    // a redirector, reached by name too
    let redirector = Receiver::start();
    redirector.status.store(307, Ordering::SeqCst);
    *redirector.location.lock().unwrap() = rx.url();
    names.point("redirect.test", "127.0.0.1");
    let redirected = stored_endpoint(
        &app,
        &ben,
        &format!("http://redirect.test:{}/hook", redirector.port),
    );
    // then hook.test moves inside
    names.point("hook.test", "127.0.0.1");
    start_game(&[&ann, &ben], Value::Null);

    let guarded = worker(&app, &names, false);
    round(&guarded);
    assert!(rx.everything().is_empty(), "nothing reached 127.0.0.1");
    assert!(redirector.everything().is_empty());
    let d = only_delivery(&app, &named);
    assert_eq!(
        d.status.as_str(),
        "pending",
        "a name may move back: retried"
    );
    assert_eq!(d.attempts.len(), 1);
    let a = &d.attempts[0];
    assert_eq!(a.http_status, None);
    let err = a.error.as_deref().unwrap_or_default();
    assert!(
        err.contains("not allowed") && err.contains("hook.test resolves to no public address"),
        "{err}"
    );
    assert!(
        !err.contains("127.0.0.1"),
        "the resolved address stays hidden: {err}"
    );
    let d = only_delivery(&app, &lit);
    assert_eq!(d.status.as_str(), "failed");
    let err = d.attempts[0].error.clone().unwrap_or_default();
    assert!(err.contains("127.0.0.1, which is loopback"), "{err}");
    let ep = block(
        app.server
            .state
            .store
            .endpoint_of(ann.user_id.clone(), lit.clone()),
    )
    .expect("endpoint")
    .expect("still there");
    assert_eq!(ep.enabled, 0);
    assert!(ep
        .disabled_reason
        .is_some_and(|r| r.contains("127.0.0.1, which is loopback")));
    let listed = ann.get("/v1/users/me/webhooks");
    let shown = listed.ok()["webhooks"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|w| w["id"] == lit.as_str())
        .cloned()
        .expect("listed");
    assert_eq!(shown["enabled"], false);

    // The same resolver with private addresses allowed reaches the receiver: the name
    // was looked up at the connection, and refused above for its address alone.
    app.clock.advance_ms(3_600_000);
    let open = worker(&app, &names, true);
    round(&open);
    let got = rx.everything();
    assert_eq!(got.len(), 1, "only the endpoint by name, once");
    assert_eq!(got[0].json["type"], "game.started");
    assert_eq!(only_delivery(&app, &named).status.as_str(), "delivered");
    assert_eq!(
        only_delivery(&app, &lit).attempts.len(),
        1,
        "disabled: not retried"
    );
    // the redirector answered 307 to the receiver: recorded, not followed
    assert_eq!(redirector.everything().len(), 1);
    let d = only_delivery(&app, &redirected);
    assert_eq!(d.attempts.last().and_then(|a| a.http_status), Some(307));
    assert_eq!(d.status.as_str(), "pending");
    std::thread::sleep(Duration::from_millis(100));
    assert_eq!(rx.everything().len(), 1, "the redirect was not followed");
}

/// The deliveries of a user's messages of `kind`.
fn deliveries(app: &TestApp, user: &Client, kind: &str) -> Vec<DeliveryRow> {
    let store = &app.server.state.store;
    let rows = block(store.outbox_for_user(user.user_id.clone())).expect("outbox");
    rows.into_iter()
        .filter(|m| m.kind == kind)
        .flat_map(|m| block(store.deliveries_of_message(m.id)).expect("deliveries"))
        .collect()
}

/// Ann deletes her account while the worker is sending her `game.started` (and ben's,
/// in the same round): her messages and deliveries go with the account, the worker
/// records ben's attempt and goes on (ben's delivery is delivered once, not left
/// `sending` to be sent again when its lease runs out), and nothing is recorded against
/// ann's vanished delivery.
fn account_deleted_while_its_email_is_sent(kind: Db) {
    let rx = Receiver::start();
    let app = with_relay(kind, &rx);
    let (ann, ben) = (app.user("ann"), app.user("ben"));
    rx.hold.store(true, Ordering::SeqCst);
    start_game(&[&ann, &ben], Value::Null);
    let started = |r: &crate::notifications::Received| r.json["type"] == "game.started";
    wait_for(&app, 0, "both game.started at the relay", || {
        rx.all().iter().filter(|r| started(r)).count() == 2
    });
    assert_eq!(deliveries(&app, &ann, "game.started").len(), 1);
    let d = ann.request(
        "DELETE",
        "/v1/users/me",
        Some(&json!({"password": "correct horse"}).to_string()),
        &[],
    );
    assert_eq!(d.status, 204, "{}", d.text);
    assert!(deliveries(&app, &ann, "game.started").is_empty());
    rx.hold.store(false, Ordering::SeqCst);
    wait_for(&app, 0, "ben's game.started recorded", || {
        let ds = deliveries(&app, &ben, "game.started");
        ds.len() == 1 && ds[0].status == "delivered"
    });
    let ds = deliveries(&app, &ben, "game.started");
    assert_eq!(ds[0].attempts, 1);
    // ann resigned with her account: ben's game.finished comes next, so the worker goes on
    wait_for(&app, 100, "ben's game.finished delivered", || {
        let ds = deliveries(&app, &ben, "game.finished");
        ds.len() == 1 && ds[0].status == "delivered"
    });
    let to_ben = |t: &str| {
        rx.all()
            .iter()
            .filter(|r| r.json["type"] == t && r.json["data"]["recipient"]["name"] == "ben")
            .count()
    };
    assert_eq!(to_ben("game.started"), 1, "sent once");
    assert_eq!(to_ben("game.finished"), 1);
    assert!(
        block(app.server.state.store.outbox_for_user(ann.user_id.clone()))
            .expect("outbox")
            .is_empty()
    );
}

each_db!(
    delivery_checks_the_address_it_connects_to,
    account_deleted_while_its_email_is_sent
);
