// @generated automatically by Diesel CLI.

diesel::table! {
    access_tokens (id) {
        id -> Text,
        user_id -> Text,
        kind -> Text,
        name -> Nullable<Text>,
        secret_hash -> Nullable<Text>,
        scopes -> Text,
        created_at -> Int8,
        expires_at -> Nullable<Int8>,
    }
}

diesel::table! {
    account_tokens (id) {
        id -> Text,
        user_id -> Text,
        purpose -> Text,
        token_hash -> Text,
        email -> Text,
        created_at -> Int8,
        expires_at -> Int8,
        used_at -> Nullable<Int8>,
    }
}

diesel::table! {
    chat_messages (id) {
        id -> Text,
        game_id -> Text,
        n -> Int8,
        user_id -> Text,
        body -> Text,
        after_seq -> Int8,
        created_at -> Int8,
    }
}

diesel::table! {
    game_clocks (game_id) {
        game_id -> Text,
        days_per_move -> Int4,
        reminded_turn -> Nullable<Int8>,
        turn_started_at -> Nullable<Int8>,
        due_at -> Nullable<Int8>,
        planned_turn -> Nullable<Int8>,
        remind_at -> Nullable<Int8>,
        reminded_before -> Nullable<Int8>,
        bank_initial_ms -> Nullable<Int8>,
        bank_increment_ms -> Nullable<Int8>,
        bank_max_ms -> Nullable<Int8>,
        turn_bank_ms -> Nullable<Int8>,
        paused_at -> Nullable<Int8>,
        paused_ms -> Int8,
        paused_turn -> Nullable<Int8>,
    }
}

diesel::table! {
    game_events (game_id, seq) {
        game_id -> Text,
        seq -> Int8,
        event_type -> Text,
        event_version -> Int4,
        payload -> Text,
        actor_id -> Nullable<Text>,
        created_at -> Int8,
        decided_by -> Nullable<Text>,
    }
}

diesel::table! {
    game_invites (game_id, user_id) {
        game_id -> Text,
        user_id -> Text,
        status -> Text,
        created_at -> Int8,
        seat -> Nullable<Int4>,
    }
}

diesel::table! {
    game_results (user_id, game_id) {
        user_id -> Text,
        game_id -> Text,
        ended_at -> Int8,
        seats -> Int4,
        rank -> Int4,
        score -> Int4,
        outcome -> Text,
        public -> Int4,
        pool -> Nullable<Text>,
        rating_before -> Nullable<Float8>,
        rating_after -> Nullable<Float8>,
        deviation_after -> Nullable<Float8>,
        unrated_reason -> Nullable<Text>,
    }
}

diesel::table! {
    game_seats (game_id, seat) {
        game_id -> Text,
        seat -> Int4,
        user_id -> Text,
        joined_at -> Int8,
        bank_ms -> Nullable<Int8>,
    }
}

diesel::table! {
    games (id) {
        id -> Text,
        creator_id -> Text,
        status -> Text,
        seats -> Int4,
        expansions -> Text,
        tile_order -> Nullable<Text>,
        version -> Int8,
        current_user_id -> Nullable<Text>,
        created_at -> Int8,
        updated_at -> Int8,
        turn_started_at -> Nullable<Int8>,
        rules -> Nullable<Text>,
        rated -> Int4,
        visibility -> Text,
        bot_accounts -> Int4,
        assistance -> Text,
    }
}

diesel::table! {
    calendar_feeds (user_id) {
        user_id -> Text,
        token_hash -> Text,
        created_at -> Int8,
    }
}

diesel::table! {
    reminder_settings (user_id) {
        user_id -> Text,
        hours -> Text,
    }
}

diesel::table! {
    reviews (game_id) {
        game_id -> Text,
        status -> Text,
        total -> Int4,
        judged -> Text,
        error -> Nullable<Text>,
        requested_at -> Int8,
        updated_at -> Int8,
    }
}

diesel::table! {
    idempotency_keys (user_id, idem_key) {
        user_id -> Text,
        idem_key -> Text,
        request_hash -> Text,
        status -> Int4,
        body -> Text,
        created_at -> Int8,
    }
}

diesel::table! {
    limit_attempts (id) {
        id -> Text,
        kind -> Text,
        subject -> Text,
        at -> Int8,
    }
}

diesel::table! {
    notification_prefs (user_id, event_type) {
        user_id -> Text,
        event_type -> Text,
        email -> Int4,
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
        attempts -> Int4,
        next_attempt_at -> Int8,
        delivered_at -> Nullable<Int8>,
        created_at -> Int8,
    }
}

diesel::table! {
    push_subscriptions (id) {
        id -> Text,
        user_id -> Text,
        endpoint -> Text,
        p256dh -> Text,
        auth -> Text,
        label -> Text,
        kinds -> Text,
        created_at -> Int8,
    }
}

diesel::table! {
    ratings (user_id, pool) {
        user_id -> Text,
        pool -> Text,
        rating -> Float8,
        deviation -> Float8,
        volatility -> Float8,
        games -> Int4,
        updated_at -> Int8,
    }
}

diesel::table! {
    retired_usernames (name) {
        name -> Text,
        retired_at -> Int8,
    }
}

diesel::table! {
    seek_players (seek_id, user_id) {
        seek_id -> Text,
        user_id -> Text,
        position -> Int4,
        joined_at -> Int8,
    }
}

diesel::table! {
    seeks (id) {
        id -> Text,
        creator_id -> Text,
        seats -> Int4,
        expansions -> Text,
        rules -> Nullable<Text>,
        days_per_move -> Nullable<Int4>,
        rated -> Int4,
        min_rating -> Nullable<Int4>,
        max_rating -> Nullable<Int4>,
        min_finish_rate -> Nullable<Int4>,
        status -> Text,
        game_id -> Nullable<Text>,
        created_at -> Int8,
        expires_at -> Int8,
    }
}

diesel::table! {
    settings (name) {
        name -> Text,
        value -> Text,
    }
}

diesel::table! {
    standing_orders (user_id, game_id, kind) {
        user_id -> Text,
        game_id -> Text,
        kind -> Text,
        answer -> Text,
        updated_at -> Int8,
    }
}

diesel::table! {
    stream_events (id) {
        id -> Int8,
        user_id -> Text,
        kind -> Text,
        game_id -> Nullable<Text>,
        payload -> Text,
        created_at -> Int8,
    }
}

diesel::table! {
    tournament_events (tournament_id, seq) {
        tournament_id -> Text,
        seq -> Int8,
        event_type -> Text,
        event_version -> Int4,
        payload -> Text,
        actor_id -> Nullable<Text>,
        created_at -> Int8,
    }
}

diesel::table! {
    tournament_games (game_id) {
        game_id -> Text,
        tournament_id -> Text,
        stage -> Int4,
        round -> Int4,
        table_no -> Int4,
        game_no -> Int4,
        result_seq -> Nullable<Int8>,
    }
}

diesel::table! {
    tournament_players (tournament_id, user_id) {
        tournament_id -> Text,
        user_id -> Text,
        withdrawn -> Int4,
    }
}

diesel::table! {
    tournaments (id) {
        id -> Text,
        name -> Text,
        organiser_id -> Text,
        status -> Text,
        config -> Text,
        version -> Int8,
        players -> Int4,
        current_stage -> Int4,
        current_round -> Int4,
        round_started_at -> Nullable<Int8>,
        round_deadline -> Nullable<Int8>,
        next_round_at -> Nullable<Int8>,
        created_at -> Int8,
        updated_at -> Int8,
        rounds_paired -> Int4,
        paused_at -> Nullable<Int8>,
    }
}

diesel::table! {
    turn_plans (game_id, user_id, tile) {
        game_id -> Text,
        user_id -> Text,
        tile -> Text,
        actions -> Text,
        created_at -> Int8,
    }
}

diesel::table! {
    user_stats (user_id) {
        user_id -> Text,
        played -> Int4,
        finished -> Int4,
        won -> Int4,
        resigned -> Int4,
        timed_out -> Int4,
        moves -> Int8,
        move_ms -> Int8,
        uncounted -> Int4,
    }
}

diesel::table! {
    users (id) {
        id -> Text,
        username -> Text,
        email -> Text,
        password_hash -> Text,
        notify_turn -> Int4,
        notify_finished -> Int4,
        created_at -> Int8,
        locale -> Text,
        time_zone -> Text,
        email_verified_at -> Nullable<Int8>,
        deleted_at -> Nullable<Int8>,
        bot -> Nullable<Text>,
        digest_hour -> Nullable<Int4>,
        digest_sent_on -> Nullable<Text>,
    }
}

diesel::table! {
    vacations (id) {
        id -> Text,
        user_id -> Text,
        started_at -> Int8,
        ends_at -> Int8,
        until_move -> Int4,
        ended_at -> Nullable<Int8>,
    }
}

diesel::table! {
    webhook_attempts (id) {
        id -> Text,
        delivery_id -> Text,
        attempted_at -> Int8,
        http_status -> Nullable<Int4>,
        duration_ms -> Int8,
        error -> Nullable<Text>,
        excerpt -> Nullable<Text>,
    }
}

diesel::table! {
    webhook_deliveries (id) {
        id -> Text,
        outbox_id -> Text,
        endpoint_id -> Text,
        user_id -> Text,
        status -> Text,
        attempts -> Int4,
        next_attempt_at -> Int8,
        claim_token -> Nullable<Text>,
        claimed_until -> Nullable<Int8>,
        last_status -> Nullable<Int4>,
        delivered_at -> Nullable<Int8>,
        created_at -> Int8,
    }
}

diesel::table! {
    webhook_endpoints (id) {
        id -> Text,
        user_id -> Text,
        url -> Text,
        secret -> Text,
        event_types -> Text,
        enabled -> Int4,
        disabled_reason -> Nullable<Text>,
        created_at -> Int8,
    }
}

diesel::joinable!(access_tokens -> users (user_id));
diesel::joinable!(account_tokens -> users (user_id));
diesel::joinable!(chat_messages -> games (game_id));
diesel::joinable!(chat_messages -> users (user_id));
diesel::joinable!(calendar_feeds -> users (user_id));
diesel::joinable!(game_clocks -> games (game_id));
diesel::joinable!(game_events -> games (game_id));
diesel::joinable!(game_invites -> games (game_id));
diesel::joinable!(game_invites -> users (user_id));
diesel::joinable!(game_results -> games (game_id));
diesel::joinable!(game_results -> users (user_id));
diesel::joinable!(game_seats -> games (game_id));
diesel::joinable!(game_seats -> users (user_id));
diesel::joinable!(games -> users (creator_id));
diesel::joinable!(notification_prefs -> users (user_id));
diesel::joinable!(outbox -> users (user_id));
diesel::joinable!(push_subscriptions -> users (user_id));
diesel::joinable!(ratings -> users (user_id));
diesel::joinable!(seek_players -> seeks (seek_id));
diesel::joinable!(seek_players -> users (user_id));
diesel::joinable!(seeks -> games (game_id));
diesel::joinable!(seeks -> users (creator_id));
diesel::joinable!(standing_orders -> users (user_id));
diesel::joinable!(stream_events -> users (user_id));
diesel::joinable!(tournament_events -> tournaments (tournament_id));
diesel::joinable!(tournament_games -> games (game_id));
diesel::joinable!(tournament_games -> tournaments (tournament_id));
diesel::joinable!(tournament_players -> tournaments (tournament_id));
diesel::joinable!(tournament_players -> users (user_id));
diesel::joinable!(tournaments -> users (organiser_id));
diesel::joinable!(turn_plans -> games (game_id));
diesel::joinable!(turn_plans -> users (user_id));
diesel::joinable!(user_stats -> users (user_id));
diesel::joinable!(vacations -> users (user_id));
diesel::joinable!(webhook_attempts -> webhook_deliveries (delivery_id));
diesel::joinable!(webhook_deliveries -> outbox (outbox_id));
diesel::joinable!(webhook_endpoints -> users (user_id));

diesel::allow_tables_to_appear_in_same_query!(
    access_tokens,
    account_tokens,
    calendar_feeds,
    chat_messages,
    game_clocks,
    game_events,
    game_invites,
    game_results,
    game_seats,
    games,
    idempotency_keys,
    limit_attempts,
    notification_prefs,
    outbox,
    push_subscriptions,
    ratings,
    reminder_settings,
    retired_usernames,
    reviews,
    seek_players,
    seeks,
    settings,
    standing_orders,
    stream_events,
    tournament_events,
    tournament_games,
    tournament_players,
    tournaments,
    turn_plans,
    user_stats,
    users,
    vacations,
    webhook_attempts,
    webhook_deliveries,
    webhook_endpoints,
);
