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
