// @generated automatically by Diesel CLI.

diesel::table! {
    api_tokens (id) {
        id -> Integer,
        user_id -> Integer,
        label -> Text,
        token_hash -> Text,
        created_at -> Timestamp,
        last_used_at -> Nullable<Timestamp>,
        revoked_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    audit_entries (id) {
        id -> Integer,
        tournament_id -> Nullable<Integer>,
        user_id -> Nullable<Integer>,
        at -> Timestamp,
        action -> Text,
        entity -> Text,
        entity_id -> Nullable<Integer>,
        old_value -> Nullable<Text>,
        new_value -> Nullable<Text>,
        detail -> Nullable<Text>,
    }
}

diesel::table! {
    forbidden_pairs (id) {
        id -> Integer,
        tournament_id -> Integer,
        player_a -> Integer,
        player_b -> Integer,
        from_round -> Nullable<Integer>,
        to_round -> Nullable<Integer>,
        waived -> Bool,
        note -> Text,
        created_by -> Nullable<Integer>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    games (id) {
        id -> Integer,
        pairing_id -> Integer,
        number -> Integer,
        starter_player_id -> Nullable<Integer>,
        result -> Nullable<Text>,
        tiebreak -> Bool,
        scoresheet -> Nullable<Text>,
        version -> Integer,
        updated_at -> Nullable<Timestamp>,
        updated_by -> Nullable<Integer>,
        reported -> Bool,
    }
}

diesel::table! {
    lineups (id) {
        id -> Integer,
        round_id -> Integer,
        team_id -> Integer,
        board -> Integer,
        player_id -> Integer,
        replaces_player_id -> Nullable<Integer>,
    }
}

diesel::table! {
    login_failures (id) {
        id -> Integer,
        name -> Text,
        at -> Timestamp,
    }
}

diesel::table! {
    merges (id) {
        id -> Integer,
        person_id -> Integer,
        into_id -> Integer,
        entries -> Text,
        merged_by -> Nullable<Integer>,
        merged_at -> Timestamp,
        undone_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    origin_people (id) {
        id -> Integer,
        origin_id -> Text,
        venue_person -> Integer,
        person_id -> Integer,
    }
}

diesel::table! {
    pairings (id) {
        id -> Integer,
        round_id -> Integer,
        table_no -> Integer,
        first_player_id -> Nullable<Integer>,
        second_player_id -> Nullable<Integer>,
        first_team_id -> Nullable<Integer>,
        second_team_id -> Nullable<Integer>,
        team_pairing_id -> Nullable<Integer>,
        board -> Nullable<Integer>,
        bye -> Nullable<Text>,
        explanation -> Text,
        started -> Bool,
    }
}

diesel::table! {
    people (id) {
        id -> Integer,
        name -> Text,
        federation_id -> Nullable<Text>,
        club -> Text,
        born -> Nullable<Integer>,
        start_rating -> Nullable<Double>,
        start_rd -> Nullable<Double>,
        start_volatility -> Nullable<Double>,
        start_period -> Nullable<Text>,
        merged_into -> Nullable<Integer>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    players (id) {
        id -> Integer,
        tournament_id -> Integer,
        name -> Text,
        club -> Text,
        rating -> Nullable<Integer>,
        seed -> Nullable<Integer>,
        federation_id -> Text,
        withdrawn_from_round -> Nullable<Integer>,
        created_at -> Timestamp,
        person_id -> Nullable<Integer>,
        link_version -> Integer,
        link_digest -> Nullable<Text>,
    }
}

diesel::table! {
    idempotent_answers (link, idempotency_key) {
        link -> Text,
        idempotency_key -> Text,
        request -> Text,
        status -> Integer,
        content_type -> Nullable<Text>,
        location -> Nullable<Text>,
        body -> Text,
        created_at -> Timestamp,
    }
}

diesel::table! {
    publications (id) {
        id -> Integer,
        tournament_id -> Integer,
        origin_id -> Text,
        target -> Text,
        token -> Text,
        active -> Bool,
        published_revision -> Nullable<Integer>,
        last_success_at -> Nullable<Timestamp>,
        last_error -> Nullable<Text>,
        failures -> Integer,
        last_attempt_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    published (id) {
        id -> Integer,
        origin_id -> Text,
        tournament_id -> Integer,
        published_by -> Nullable<Integer>,
        server -> Text,
        link -> Text,
        revision -> Integer,
        updated_at -> Timestamp,
    }
}

diesel::table! {
    relations (id) {
        id -> Integer,
        tournament_id -> Integer,
        player_a -> Integer,
        player_b -> Integer,
        created_at -> Timestamp,
    }
}

diesel::table! {
    reports (id) {
        id -> Integer,
        game_id -> Integer,
        player_id -> Integer,
        result -> Text,
        reported_at -> Timestamp,
    }
}

diesel::table! {
    ply_rulings (id) {
        id -> Integer,
        game_id -> Integer,
        ply -> Integer,
        player_id -> Integer,
        rectified -> Bool,
        written -> Text,
        ruled_at -> Timestamp,
    }
}

diesel::table! {
    live_sent (publication_id, game_id) {
        publication_id -> Integer,
        game_id -> Integer,
        version -> Integer,
    }
}

diesel::table! {
    live_games (game_id) {
        game_id -> Integer,
        round_id -> Integer,
        version -> Integer,
    }
}

diesel::table! {
    recorded_plies (game_id, player_id, ply) {
        game_id -> Integer,
        player_id -> Integer,
        ply -> Integer,
        written -> Text,
        recorded_at -> Timestamp,
    }
}

diesel::table! {
    requested_byes (id) {
        id -> Integer,
        tournament_id -> Integer,
        player_id -> Integer,
        round -> Integer,
        half -> Bool,
        by_player -> Bool,
    }
}

diesel::table! {
    rounds (id) {
        id -> Integer,
        tournament_id -> Integer,
        number -> Integer,
        status -> Text,
        explanation -> Text,
        created_at -> Timestamp,
        published_at -> Nullable<Timestamp>,
        locked_at -> Nullable<Timestamp>,
        played_on -> Date,
        clock_starts_at -> Nullable<Timestamp>,
        clock_minutes -> Nullable<Integer>,
    }
}

diesel::table! {
    rulings (id) {
        id -> Integer,
        game_id -> Integer,
        kind -> Text,
        result -> Nullable<Text>,
        reason -> Text,
        ruled_by -> Nullable<Integer>,
        ruled_at -> Timestamp,
    }
}

diesel::table! {
    scoresheets (id) {
        id -> Integer,
        game_id -> Integer,
        side -> Text,
        text -> Text,
        rules -> Text,
        error -> Nullable<Text>,
        submitted_by -> Nullable<Integer>,
        by_link -> Bool,
        submitted_at -> Timestamp,
        superseded_at -> Nullable<Timestamp>,
    }
}

diesel::table! {
    season_events (id) {
        id -> Integer,
        season_id -> Integer,
        tournament_id -> Integer,
        weight -> Double,
    }
}

diesel::table! {
    seasons (id) {
        id -> Integer,
        name -> Text,
        points -> Text,
        best -> Nullable<Integer>,
        created_by -> Nullable<Integer>,
        created_at -> Timestamp,
    }
}

diesel::table! {
    sessions (id) {
        id -> Integer,
        token_hash -> Text,
        user_id -> Integer,
        created_at -> Timestamp,
        expires_at -> Timestamp,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    team_members (id) {
        id -> Integer,
        team_id -> Integer,
        player_id -> Integer,
        board -> Nullable<Integer>,
        substitute -> Bool,
    }
}

diesel::table! {
    teams (id) {
        id -> Integer,
        tournament_id -> Integer,
        name -> Text,
        club -> Text,
        captain_digest -> Nullable<Text>,
    }
}

diesel::table! {
    tournament_referees (tournament_id, user_id) {
        tournament_id -> Integer,
        user_id -> Integer,
    }
}

diesel::table! {
    tournaments (id) {
        id -> Integer,
        name -> Text,
        venue -> Text,
        starts_on -> Nullable<Date>,
        ends_on -> Nullable<Date>,
        system -> Text,
        rules -> Text,
        games_per_pairing -> Integer,
        ranking -> Text,
        tiebreaks -> Text,
        bye_value -> Text,
        created_by -> Nullable<Integer>,
        created_at -> Timestamp,
        updated_at -> Timestamp,
        revision -> Integer,
        records_public -> Bool,
        records_required -> Bool,
        rounds -> Nullable<Integer>,
        cycles -> Integer,
        confirmation -> Text,
        clocks -> Bool,
        half_point_bye -> Bool,
        archived -> Bool,
        rated -> Bool,
        live_boards -> Text,
    }
}

diesel::table! {
    users (id) {
        id -> Integer,
        name -> Text,
        role -> Text,
        password_hash -> Text,
        created_at -> Timestamp,
        may_publish -> Bool,
    }
}

diesel::joinable!(api_tokens -> users (user_id));
diesel::joinable!(audit_entries -> tournaments (tournament_id));
diesel::joinable!(audit_entries -> users (user_id));
diesel::joinable!(forbidden_pairs -> tournaments (tournament_id));
diesel::joinable!(forbidden_pairs -> users (created_by));
diesel::joinable!(games -> pairings (pairing_id));
diesel::joinable!(games -> players (starter_player_id));
diesel::joinable!(games -> users (updated_by));
diesel::joinable!(lineups -> rounds (round_id));
diesel::joinable!(lineups -> teams (team_id));
diesel::joinable!(origin_people -> people (person_id));
diesel::joinable!(pairings -> rounds (round_id));
diesel::joinable!(merges -> users (merged_by));
diesel::joinable!(players -> people (person_id));
diesel::joinable!(players -> tournaments (tournament_id));
diesel::joinable!(publications -> tournaments (tournament_id));
diesel::joinable!(published -> tournaments (tournament_id));
diesel::joinable!(published -> users (published_by));
diesel::joinable!(relations -> tournaments (tournament_id));
diesel::joinable!(ply_rulings -> games (game_id));
diesel::joinable!(ply_rulings -> players (player_id));
diesel::joinable!(live_games -> games (game_id));
diesel::joinable!(live_games -> rounds (round_id));
diesel::joinable!(live_sent -> games (game_id));
diesel::joinable!(live_sent -> publications (publication_id));
diesel::joinable!(recorded_plies -> games (game_id));
diesel::joinable!(recorded_plies -> players (player_id));
diesel::joinable!(reports -> games (game_id));
diesel::joinable!(reports -> players (player_id));
diesel::joinable!(requested_byes -> players (player_id));
diesel::joinable!(requested_byes -> tournaments (tournament_id));
diesel::joinable!(rounds -> tournaments (tournament_id));
diesel::joinable!(rulings -> games (game_id));
diesel::joinable!(rulings -> users (ruled_by));
diesel::joinable!(scoresheets -> games (game_id));
diesel::joinable!(scoresheets -> users (submitted_by));
diesel::joinable!(season_events -> seasons (season_id));
diesel::joinable!(season_events -> tournaments (tournament_id));
diesel::joinable!(seasons -> users (created_by));
diesel::joinable!(sessions -> users (user_id));
diesel::joinable!(team_members -> players (player_id));
diesel::joinable!(team_members -> teams (team_id));
diesel::joinable!(teams -> tournaments (tournament_id));
diesel::joinable!(tournament_referees -> tournaments (tournament_id));
diesel::joinable!(tournament_referees -> users (user_id));
diesel::joinable!(tournaments -> users (created_by));

diesel::allow_tables_to_appear_in_same_query!(
    api_tokens,
    audit_entries,
    forbidden_pairs,
    games,
    idempotent_answers,
    lineups,
    live_games,
    live_sent,
    login_failures,
    merges,
    origin_people,
    pairings,
    people,
    players,
    publications,
    published,
    relations,
    reports,
    ply_rulings,
    recorded_plies,
    requested_byes,
    rounds,
    rulings,
    scoresheets,
    season_events,
    seasons,
    sessions,
    settings,
    team_members,
    teams,
    tournament_referees,
    tournaments,
    users,
);
