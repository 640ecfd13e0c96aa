//! Tables of correspondence play (clocks, vacations, invitations, chat), kept by hand in
//! step with `migrations/*/2024-03-01-000000_correspondence`.

diesel::table! {
    game_clocks (game_id) {
        game_id -> Text,
        days_per_move -> Integer,
        reminded_turn -> Nullable<BigInt>,
    }
}

diesel::table! {
    vacations (id) {
        id -> Text,
        user_id -> Text,
        started_at -> BigInt,
        ends_at -> BigInt,
        until_move -> Integer,
        ended_at -> Nullable<BigInt>,
    }
}

diesel::table! {
    game_invites (game_id, user_id) {
        game_id -> Text,
        user_id -> Text,
        status -> Text,
        created_at -> BigInt,
    }
}

diesel::table! {
    chat_messages (id) {
        id -> Text,
        game_id -> Text,
        n -> BigInt,
        user_id -> Text,
        body -> Text,
        after_seq -> BigInt,
        created_at -> BigInt,
    }
}

use super::schema::games;

diesel::allow_tables_to_appear_in_same_query!(
    game_clocks,
    vacations,
    game_invites,
    chat_messages,
    games,
);
