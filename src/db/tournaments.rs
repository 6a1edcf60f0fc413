//! Tournaments and the referees assigned to them.

use crate::refusal::{Refusal, Thing};
use chrono::{NaiveDate, NaiveDateTime};
use diesel::prelude::*;
use serde::Serialize;

use super::audit::Write;
use super::schema::{published, rounds, tournament_referees, tournaments, users};
use super::users::User;
use super::{classify, found, now, read_row, DbConnection, DbError};
use crate::calendar;
use crate::change::{Action, Change, Entity};
use crate::ids::{TournamentId, UserId};
use crate::tournament::{
    format_tiebreaks, ByeValue, Confirmation, LiveBoards, Ranking, RuleSet, System, Tiebreaks,
    TournamentFields,
};

/// A tournament row. Its settings are stored in the spellings of
/// [`crate::tournament`] and read back as those values; a stored spelling
/// that is not one of them is an error, never a silent default.
#[derive(Debug, Clone, Queryable, Selectable, Serialize)]
#[diesel(table_name = tournaments)]
pub struct Tournament {
    pub id: TournamentId,
    pub name: String,
    pub venue: String,
    pub starts_on: Option<NaiveDate>,
    pub ends_on: Option<NaiveDate>,
    #[diesel(deserialize_as = String)]
    pub system: System,
    #[diesel(deserialize_as = String)]
    pub rules: RuleSet,
    pub games_per_pairing: i32,
    /// `None` until the first pairing where the field decides (see
    /// [`crate::tournament::rounds_for_field`]).
    pub rounds: Option<i32>,
    /// See [`TournamentFields::cycles`].
    pub cycles: i32,
    #[diesel(deserialize_as = String)]
    pub ranking: Ranking,
    #[diesel(deserialize_as = String)]
    pub tiebreaks: Tiebreaks,
    #[diesel(deserialize_as = String)]
    pub bye_value: ByeValue,
    pub created_by: Option<UserId>,
    pub created_at: NaiveDateTime,
    pub updated_at: NaiveDateTime,
    /// Counts every change to the tournament (see [`revision`]).
    pub revision: i32,
    /// See [`TournamentFields::records_public`].
    pub records_public: bool,
    /// See [`TournamentFields::records_required`].
    pub records_required: bool,
    #[diesel(deserialize_as = String)]
    pub confirmation: Confirmation,
    /// See [`TournamentFields::clocks`].
    pub clocks: bool,
    /// See [`TournamentFields::half_point_bye`].
    pub half_point_bye: bool,
    /// Withdrawn from public view: only its referees and the admins see it.
    pub archived: bool,
    /// See [`TournamentFields::rated`].
    pub rated: bool,
    #[diesel(deserialize_as = String)]
    pub live_boards: LiveBoards,
}

impl Tournament {
    /// The last round a round number may name (a kept-apart pair's range,
    /// a requested bye): the rounds set, or, while the field still decides
    /// them, the most any event has.
    pub fn last_round(&self) -> i32 {
        self.rounds.unwrap_or(crate::tournament::MAX_ROUNDS)
    }

    /// The round clock's usual limit for this event (OGR 8).
    pub fn clock_limit(&self) -> crate::clock::DefaultLimit {
        crate::clock::default_limit(self.clocks, self.records_required, self.games_per_pairing)
    }

    /// The fields as a referee would edit them.
    pub fn fields(&self) -> TournamentFields {
        TournamentFields {
            name: self.name.clone(),
            venue: self.venue.clone(),
            starts_on: self.starts_on,
            ends_on: self.ends_on,
            system: self.system,
            rules: self.rules,
            games_per_pairing: self.games_per_pairing,
            rounds: self.rounds,
            cycles: self.cycles,
            ranking: self.ranking,
            tiebreaks: self.tiebreaks.to_vec(),
            bye_value: self.bye_value,
            records_public: self.records_public,
            records_required: self.records_required,
            confirmation: self.confirmation,
            live_boards: self.live_boards,
            clocks: self.clocks,
            half_point_bye: self.half_point_bye,
            rated: self.rated,
        }
    }
}

/// A tournament's settings as its columns: the same for a new tournament
/// and an edit, so the two cannot drift apart.
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = tournaments, treat_none_as_null = true)]
struct Settings<'a> {
    name: &'a str,
    venue: &'a str,
    starts_on: Option<NaiveDate>,
    ends_on: Option<NaiveDate>,
    system: &'static str,
    rules: &'static str,
    games_per_pairing: i32,
    rounds: Option<i32>,
    cycles: i32,
    ranking: &'static str,
    tiebreaks: String,
    bye_value: &'static str,
    records_public: bool,
    records_required: bool,
    confirmation: &'static str,
    live_boards: &'static str,
    clocks: bool,
    half_point_bye: bool,
    rated: bool,
}

impl Settings<'_> {
    fn of(f: &TournamentFields) -> Settings<'_> {
        Settings {
            name: &f.name,
            venue: &f.venue,
            starts_on: f.starts_on,
            ends_on: f.ends_on,
            system: f.system.as_str(),
            rules: f.rules.as_str(),
            games_per_pairing: f.games_per_pairing,
            rounds: f.rounds,
            cycles: f.cycles,
            ranking: f.ranking.as_str(),
            tiebreaks: format_tiebreaks(&f.tiebreaks),
            bye_value: f.bye_value.as_str(),
            records_public: f.records_public,
            records_required: f.records_required,
            confirmation: f.confirmation.as_str(),
            live_boards: f.live_boards.as_str(),
            clocks: f.clocks,
            half_point_bye: f.half_point_bye,
            rated: f.rated,
        }
    }
}

/// A new tournament; a referee who creates one referees it.
pub fn create(w: &mut Write, f: &TournamentFields, creator: &User) -> Result<Tournament, DbError> {
    check_dates(f, None)?;
    let conn = w.conn();
    let t = now();
    let id: TournamentId = diesel::insert_into(tournaments::table)
        .values((
            Settings::of(f),
            tournaments::created_by.eq(Some(creator.id)),
            tournaments::created_at.eq(t),
            tournaments::updated_at.eq(t),
        ))
        .returning(tournaments::id)
        .get_result(conn)?;
    if !creator.is_admin() {
        assign_referee_row(conn, id, creator.id)?;
    }
    let mut c = Change::new(Some(id), Action::Create, Entity::Tournament, Some(id));
    c.new_value = serde_json::to_string(f).ok();
    w.record(c);
    find(w.conn(), id)
}

pub fn update(
    w: &mut Write,
    id: TournamentId,
    f: &TournamentFields,
) -> Result<Tournament, DbError> {
    let conn = w.conn();
    let old = find(conn, id)?.fields();
    check_dates(f, Some(&old))?;
    keeps_rounds_inside(conn, id, &old, f)?;
    diesel::update(tournaments::table.find(id))
        .set((Settings::of(f), tournaments::updated_at.eq(now())))
        .execute(conn)?;
    let mut c = Change::new(Some(id), Action::Edit, Entity::Tournament, Some(id));
    c.old_value = serde_json::to_string(&old).ok();
    c.new_value = serde_json::to_string(f).ok();
    w.record(c);
    find(w.conn(), id)
}

/// The tournament's dates within [`calendar::tournament_range`]; of an
/// edit, only the dates it changes (a date stored before the rule stays
/// until someone changes it).
fn check_dates(f: &TournamentFields, old: Option<&TournamentFields>) -> Result<(), DbError> {
    let changed = |new: Option<NaiveDate>, old: Option<NaiveDate>| new.filter(|_| new != old);
    let (starts, ends) = match old {
        Some(o) => (
            changed(f.starts_on, o.starts_on),
            changed(f.ends_on, o.ends_on),
        ),
        None => (f.starts_on, f.ends_on),
    };
    match calendar::check_tournament(starts, ends, now().date())
        .into_iter()
        .next()
    {
        Some(e) => Err(DbError::Refused(Refusal::Invalid(e))),
        None => Ok(()),
    }
}

/// New dates that would leave a stored round outside them are refused,
/// naming the round (a round already outside the old dates, stored before
/// the rules, does not hold the change up).
fn keeps_rounds_inside(
    conn: &mut DbConnection,
    id: TournamentId,
    old: &TournamentFields,
    f: &TournamentFields,
) -> Result<(), DbError> {
    if (old.starts_on, old.ends_on) == (f.starts_on, f.ends_on) {
        return Ok(());
    }
    let today = now().date();
    let before = calendar::round_range(old.starts_on, old.ends_on, today);
    let after = calendar::round_range(f.starts_on, f.ends_on, today);
    let days: Vec<(i32, NaiveDate)> = rounds::table
        .filter(rounds::tournament_id.eq(id))
        .order(rounds::number)
        .select((rounds::number, rounds::played_on))
        .load(conn)?;
    match days
        .into_iter()
        .find(|(_, day)| before.holds(*day) && !after.holds(*day))
    {
        Some((round, date)) => {
            let field = if date < after.first {
                "starts_on"
            } else {
                "ends_on"
            };
            let mut e = calendar::export_refused(round, date, after);
            e.field = field;
            Err(DbError::Refused(Refusal::Invalid(e)))
        }
        None => Ok(()),
    }
}

/// Withdraws the tournament from public view (`true`) or returns it; its
/// ratings and seasons are as they were. The same again records nothing.
pub fn set_archived(
    w: &mut Write,
    id: TournamentId,
    archived: bool,
) -> Result<Tournament, DbError> {
    let t = find(w.conn(), id)?;
    if t.archived == archived {
        return Ok(t);
    }
    diesel::update(tournaments::table.find(id))
        .set(tournaments::archived.eq(archived))
        .execute(w.conn())?;
    let action = if archived {
        Action::Archive
    } else {
        Action::Unarchive
    };
    w.record(Change::new(Some(id), action, Entity::Tournament, Some(id)));
    find(w.conn(), id)
}

/// The archived tournaments' ids.
pub fn archived_ids(conn: &mut DbConnection) -> Result<Vec<TournamentId>, DbError> {
    Ok(tournaments::table
        .filter(tournaments::archived.eq(true))
        .order(tournaments::id)
        .select(tournaments::id)
        .load(conn)?)
}

/// Those of `ids` that are not rated, in the order of `ids`.
pub fn not_rated_among(
    conn: &mut DbConnection,
    ids: &[TournamentId],
) -> Result<Vec<TournamentId>, DbError> {
    let found: Vec<TournamentId> = tournaments::table
        .filter(tournaments::id.eq_any(ids))
        .filter(tournaments::rated.eq(false))
        .select(tournaments::id)
        .load(conn)?;
    Ok(ids.iter().copied().filter(|i| found.contains(i)).collect())
}

/// The tournaments `user_id` referees.
pub fn refereed_by(conn: &mut DbConnection, user_id: UserId) -> Result<Vec<TournamentId>, DbError> {
    Ok(tournament_referees::table
        .filter(tournament_referees::user_id.eq(user_id))
        .select(tournament_referees::tournament_id)
        .load(conn)?)
}

/// Deletes the tournament with every row of it, its audit trail included;
/// the deletion is recorded as a change of no tournament (the server's
/// own trail), naming the tournament's id and name. A tournament with a
/// published round is refused, unless it is a published copy of a
/// venue's event (the venue's next publication makes a new copy).
pub fn delete(w: &mut Write, id: TournamentId) -> Result<(), DbError> {
    let t = find(w.conn(), id)?;
    let copy: i64 = published::table
        .filter(published::tournament_id.eq(id))
        .count()
        .get_result(w.conn())?;
    let published_rounds: i64 = rounds::table
        .filter(rounds::tournament_id.eq(id))
        .filter(rounds::status.eq(crate::tournament::RoundStatus::Published.as_str()))
        .count()
        .get_result(w.conn())?;
    if copy == 0 && published_rounds > 0 {
        return Err(DbError::Refused(Refusal::Conflict(
            crate::conflict::Conflict::PublishedRounds {
                published: published_rounds as i32,
            },
        )));
    }
    // The rounds first: their pairings, games and line-ups name players
    // and teams without a cascade of their own, which PostgreSQL may check
    // before the tournament's cascades reach them.
    diesel::delete(rounds::table.filter(rounds::tournament_id.eq(id))).execute(w.conn())?;
    diesel::delete(tournaments::table.find(id)).execute(w.conn())?;
    w.record(Change::new(None, Action::Delete, Entity::Tournament, Some(id)).old(t.name));
    Ok(())
}

/// Every stored round whose day lies outside its bounds
/// ([`calendar::round_range`] of its tournament's dates as of `today`),
/// by tournament and round: left out of the ratings, and in the way of
/// its event's export until a referee corrects it.
pub fn rounds_out_of_bounds(
    conn: &mut DbConnection,
    today: NaiveDate,
) -> Result<Vec<calendar::OutOfBounds>, DbError> {
    /// Tournament id, name, first and last day; round number and day.
    type Row = (
        i32,
        String,
        Option<NaiveDate>,
        Option<NaiveDate>,
        i32,
        NaiveDate,
    );
    let rows: Vec<Row> = rounds::table
        .inner_join(tournaments::table)
        .order((tournaments::id, rounds::number))
        .select((
            tournaments::id,
            tournaments::name,
            tournaments::starts_on,
            tournaments::ends_on,
            rounds::number,
            rounds::played_on,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .filter_map(|(tid, name, starts, ends, round, date)| {
            let range = calendar::round_range(starts, ends, today);
            (!range.holds(date)).then_some(calendar::OutOfBounds {
                tournament_id: tid,
                tournament: name,
                round,
                date,
                range,
            })
        })
        .collect())
}

/// Fixes the rounds of an event whose field decides them, as its first
/// pairing found them; part of that pairing's transaction.
pub fn fix_rounds(w: &mut Write, id: TournamentId, rounds: i32) -> Result<(), DbError> {
    diesel::update(tournaments::table.find(id))
        .set(tournaments::rounds.eq(Some(rounds)))
        .execute(w.conn())?;
    w.record(
        Change::new(Some(id), Action::FixRounds, Entity::Tournament, Some(id))
            .new_value(rounds.to_string()),
    );
    Ok(())
}

pub fn find(conn: &mut DbConnection, id: TournamentId) -> Result<Tournament, DbError> {
    tournaments::table
        .find(id)
        .select(Tournament::as_select())
        .first(conn)
        .map_err(|e| read_row(e, crate::refusal::Thing::Tournament, &id.to_string()))
}

/// All tournaments, the most recent first.
pub fn list(conn: &mut DbConnection) -> Result<Vec<Tournament>, DbError> {
    Ok(tournaments::table
        .order((tournaments::starts_on.desc(), tournaments::id.desc()))
        .select(Tournament::as_select())
        .load(conn)?)
}

/// Rounds paired so far (published or draft).
pub fn rounds_paired(conn: &mut DbConnection, id: TournamentId) -> Result<i32, DbError> {
    let max: Option<i32> = rounds::table
        .filter(rounds::tournament_id.eq(id))
        .select(diesel::dsl::max(rounds::number))
        .first(conn)?;
    Ok(max.unwrap_or(0))
}

pub fn referees(conn: &mut DbConnection, id: TournamentId) -> Result<Vec<User>, DbError> {
    Ok(tournament_referees::table
        .inner_join(users::table)
        .filter(tournament_referees::tournament_id.eq(id))
        .order(users::name)
        .select(User::as_select())
        .load(conn)?)
}

pub fn is_referee(
    conn: &mut DbConnection,
    id: TournamentId,
    user_id: UserId,
) -> Result<bool, DbError> {
    let n: i64 = tournament_referees::table
        .filter(tournament_referees::tournament_id.eq(id))
        .filter(tournament_referees::user_id.eq(user_id))
        .count()
        .get_result(conn)?;
    Ok(n > 0)
}

fn assign_referee_row(
    conn: &mut DbConnection,
    id: TournamentId,
    user_id: UserId,
) -> Result<(), DbError> {
    diesel::insert_into(tournament_referees::table)
        .values((
            tournament_referees::tournament_id.eq(id),
            tournament_referees::user_id.eq(user_id),
        ))
        .execute(conn)
        .map_err(|e| classify(e, crate::conflict::Taken::Referee))?;
    Ok(())
}

pub fn assign_referee(w: &mut Write, id: TournamentId, referee: &User) -> Result<(), DbError> {
    assign_referee_row(w.conn(), id, referee.id)?;
    w.record(
        Change::new(Some(id), Action::Assign, Entity::Referee, Some(referee.id))
            .new_value(referee.name.clone()),
    );
    Ok(())
}

pub fn unassign_referee(w: &mut Write, id: TournamentId, referee: &User) -> Result<(), DbError> {
    let conn = w.conn();
    let n = diesel::delete(
        tournament_referees::table
            .filter(tournament_referees::tournament_id.eq(id))
            .filter(tournament_referees::user_id.eq(referee.id)),
    )
    .execute(conn)?;
    if n == 0 {
        return Err(DbError::Refused(Refusal::NotFound(Thing::Referee)));
    }
    w.record(
        Change::new(
            Some(id),
            Action::Unassign,
            Entity::Referee,
            Some(referee.id),
        )
        .old(referee.name.clone()),
    );
    Ok(())
}

/// The tournament's change counter: pages built from it stay valid while it
/// does not move. One indexed read, cheap enough for every request.
pub fn revision(conn: &mut DbConnection, id: TournamentId) -> Result<i32, DbError> {
    tournaments::table
        .find(id)
        .select(tournaments::revision)
        .first(conn)
        .map_err(|e| found(e, crate::refusal::Thing::Tournament))
}

/// The revisions of several tournaments in one read (the live pages'
/// watcher asks for every tournament someone is looking at).
pub fn revisions(
    conn: &mut DbConnection,
    ids: &[TournamentId],
) -> Result<Vec<(TournamentId, i32)>, DbError> {
    Ok(tournaments::table
        .filter(tournaments::id.eq_any(ids))
        .select((tournaments::id, tournaments::revision))
        .load(conn)?)
}
