//! Table definitions (kept by hand in step with `migrations/`).

diesel::table! {
    users (id) {
        id -> Text,
        username -> Text,
        email -> Text,
        password_hash -> Text,
        notify_turn -> Integer,
        notify_finished -> Integer,
        created_at -> BigInt,
    }
}

diesel::table! {
    settings (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::table! {
    games (id) {
        id -> Text,
        creator_id -> Text,
        status -> Text,
        seats -> Integer,
        expansions -> Text,
        tile_order -> Nullable<Text>,
        version -> BigInt,
        current_user_id -> Nullable<Text>,
        created_at -> BigInt,
        updated_at -> BigInt,
        turn_started_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> Text,
        seat -> Integer,
        user_id -> Text,
        joined_at -> BigInt,
    }
}

diesel::table! {
    game_events (game_id, seq) {
        game_id -> Text,
        seq -> BigInt,
        event_type -> Text,
        event_version -> Integer,
        payload -> Text,
        actor_id -> Nullable<Text>,
        created_at -> BigInt,
    }
}

diesel::table! {
    idempotency_keys (user_id, idem_key) {
        user_id -> Text,
        idem_key -> Text,
        request_hash -> Text,
        status -> Integer,
        body -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    outbox (id) {
        id -> Text,
        kind -> Text,
        user_id -> Text,
        game_id -> Nullable<Text>,
        payload -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> BigInt,
        delivered_at -> Nullable<BigInt>,
        created_at -> BigInt,
    }
}

diesel::joinable!(game_seats -> users (user_id));
diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(game_events -> games (game_id));

diesel::allow_tables_to_appear_in_same_query!(
    users,
    settings,
    games,
    game_seats,
    game_events,
    idempotency_keys,
    outbox,
);

diesel::table! {
    webhook_endpoints (id) {
        id -> Text,
        user_id -> Text,
        url -> Text,
        secret -> Text,
        event_types -> Text,
        enabled -> Integer,
        disabled_reason -> Nullable<Text>,
        created_at -> BigInt,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Text,
        outbox_id -> Text,
        endpoint_id -> Text,
        user_id -> Text,
        status -> Text,
        attempts -> Integer,
        next_attempt_at -> BigInt,
        claim_token -> Nullable<Text>,
        claimed_until -> Nullable<BigInt>,
        last_status -> Nullable<Integer>,
        delivered_at -> Nullable<BigInt>,
        created_at -> BigInt,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Text,
        delivery_id -> Text,
        attempted_at -> BigInt,
        http_status -> Nullable<Integer>,
        duration_ms -> BigInt,
        error -> Nullable<Text>,
        excerpt -> Nullable<Text>,
    }
}

diesel::table! {
    notification_prefs (user_id, event_type) {
        user_id -> Text,
        event_type -> Text,
        email -> Integer,
    }
}

diesel::joinable!(webhook_deliveries -> outbox (outbox_id));
diesel::joinable!(webhook_attempts -> webhook_deliveries (delivery_id));

diesel::allow_tables_to_appear_in_same_query!(
    webhook_endpoints,
    webhook_deliveries,
    webhook_attempts,
    notification_prefs,
);
diesel::allow_tables_to_appear_in_same_query!(webhook_deliveries, outbox);
diesel::allow_tables_to_appear_in_same_query!(webhook_deliveries, users);
diesel::allow_tables_to_appear_in_same_query!(webhook_endpoints, users);

diesel::table! {
    limit_attempts (id) {
        id -> Text,
        kind -> Text,
        subject -> Text,
        at -> BigInt,
    }
}
