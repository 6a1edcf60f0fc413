//! A value refused by a rule of the data, as a value: the field at fault,
//! as forms and the API name it, and the problem with what was given. One
//! set of checks serves every form, import and API call; `wording::field`
//! says the problem to whoever reads it, so a translated page changes the
//! words, never the checks.

use crate::roster::kept_apart::span::Rounds;
use crate::tournament::choices::Tiebreak;

/// A field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct FieldError {
    pub field: &'static str,
    pub problem: Problem,
}

impl FieldError {
    pub fn new(field: &'static str, problem: Problem) -> FieldError {
        FieldError { field, problem }
    }
}

impl std::error::Error for FieldError {}

/// What is wrong with a field's value. Variants carry what the words need
/// (the text given, the limit, the players by name as the caller knows
/// them); none carries a sentence.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, strum::IntoStaticStr, strum::VariantNames,
)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Problem {
    /// Nothing was given where something must be.
    Empty,
    /// Nothing was given and no default applies: choose or type one.
    Missing,
    /// Longer than the field holds.
    TooLong { max: usize },
    /// A control character (NUL, a line break, an escape).
    ControlCharacter { code: u32 },
    /// A zero-width or bidirectional formatting character, which makes the
    /// text read differently from what is stored.
    InvisibleCharacter { code: u32 },
    /// A whole number was expected.
    NotWholeNumber { text: String },
    /// A number outside its range.
    OutOfRange { value: i64, min: i64, max: i64 },
    /// A number below 1 where counting starts at 1.
    BelowOne { value: i64 },
    /// A date that does not read as YYYY-MM-DD.
    NotADate { text: String },
    /// A bye named with `"play": true`.
    ByeWithPlay,
    /// A moment must read as ISO 8601 with its offset.
    NotATime { text: String },
    /// A calendar month (a rating period) must read `YYYY-MM`.
    NotAMonth { text: String },
    /// A decimal number was expected (a rating, an RD).
    NotANumber { text: String },
    /// A decimal number outside its range.
    DecimalOutOfRange { text: String, min: i64, max: i64 },
    /// A month after the current one: nothing is rated there yet.
    FutureMonth { text: String },
    /// A person merged into themselves.
    MergeIntoSelf,
    /// A person merged away already, into `into`.
    MergedAway { person: i32, into: i32 },
    /// A person, a tournament or an entry that is not there.
    NoSuch { id: i32 },
    /// Two players named for a pair (relatives) where one is not in the
    /// tournament.
    NotBothInEvent,
    /// A player named as their own relative.
    SelfRelative,
    /// Nothing chosen from a list (a player, a referee).
    NotChosen { what: Chosen },
    /// A game's result that is not one of the spellings Kraal reads.
    NotAResult { text: String },
    /// Fewer characters than the field needs (a password).
    TooShort { min: usize },
    /// An account name holds only letters, digits, '.', '_', '-' and '@'.
    AccountNameCharacters,
    /// A new password typed twice, differently.
    PasswordsDiffer,
    /// A password change whose current password is wrong.
    NotCurrentPassword,
    /// An API token's label: 1 to 60 characters.
    TokenLabel,
    /// A player named by something not a player's number.
    NotAPlayer { text: String },
    /// Nobody in the registry has this number or federation id.
    NobodyNamed { text: String },
    /// A bye asked for a round that is not still to pair.
    RoundNotToPair { round: i32, next: i32, last: i32 },
    /// A round that is not a number (a ban's first or last round).
    NotARoundNumber { text: String },
    /// No pairing keeps the pair apart.
    NotKeptApart,
    /// Season points that are not a list of numbers.
    NotANumberList { text: String },
    /// No round number given.
    NoRoundNumber,
    /// A ply number that is not a whole number.
    NotAPly { text: String },
    /// A recorded ply that is not one move in either notation: what the
    /// reader found, and what it expected there.
    NotAMove { text: String, expected: String },
    /// A record side that is not dark, light or referee.
    NotASide { text: String },
    /// A record that is not UTF-8 text: the bytes at `offset` are not.
    NotUtf8 { offset: usize },
    /// A record's JSON body that could not be read.
    RecordNotJson { detail: String },
    /// Two people both entered in one tournament cannot be one person.
    BothEntered { tournament: String },
    /// A merge undone already.
    AlreadyUndone { id: i32 },
    /// A merge a later one rests on: that one is undone first.
    UndoLaterFirst { id: i32, later: i32 },
    /// Given with a person of the registry, whose value the entry takes.
    FromPerson,
    /// The entry is nobody of the registry.
    NotLinked,
    /// An address that is not an `http://` or `https://` one.
    NotALink { text: String },
    /// A list longer than its limit.
    TooMany { max: usize },
    /// The same tournament twice in one list.
    Twice { id: i32 },
    /// A season counts individual events only.
    TeamEvent { id: i32 },
    /// A season without a single event.
    NoEvent,
    /// The last day is before the first.
    EndsBeforeStart,
    /// A day outside the days it may take (`first..=last`).
    DateOutside {
        date: chrono::NaiveDate,
        first: chrono::NaiveDate,
        last: chrono::NaiveDate,
    },
    /// A round stored with a day outside its bounds: the event is not
    /// exported or published until a referee corrects it.
    RoundDateOutside {
        round: i32,
        date: chrono::NaiveDate,
        first: chrono::NaiveDate,
        last: chrono::NaiveDate,
    },
    /// A name that is not one of `choices` (codes, as stored).
    Unknown {
        text: String,
        choices: &'static [&'static str],
    },
    /// A value that must be one of `choices`.
    NotOneOf {
        text: String,
        choices: &'static [&'static str],
    },
    /// Neither yes nor no.
    NotYesNo { text: String },
    /// A tiebreak Kraal does not know.
    UnknownTiebreak { text: String },
    /// A tiebreak listed twice.
    TiebreakTwice { text: String },
    /// A team tiebreak asked of an individual event.
    TeamTiebreak { tiebreak: Tiebreak },
    /// Cycles asked of a system that plays none.
    CyclesNotPlayed,
    /// A knock-out's rounds follow its field.
    KnockoutRounds {
        entrants: usize,
        needed: i32,
        given: i32,
    },
    /// Rounds that are not whole cycles of a round robin of `entrants`
    /// (one cycle is `cycle` rounds, at most `max_cycles` are played).
    NotWholeCycles {
        given: i32,
        entrants: usize,
        cycle: i32,
        max_cycles: i32,
    },
    /// Cycles and rounds that give different numbers of rounds.
    CyclesDisagree {
        cycles: i32,
        entrants: usize,
        rounds: i32,
        given: i32,
    },
    /// The first pairing fixed the rounds at `rounds`.
    RoundsFixed { rounds: i32 },
    /// Fewer rounds than are paired already.
    FewerThanPaired { paired: i32 },
    /// A round outside the event's rounds.
    RoundOutside { round: i32, rounds: i32 },
    /// A range whose last round comes before its first.
    RoundsReversed { from: i32, to: i32 },
    /// A line-up names a player the team cannot field (OGR 10.2).
    NotOnRoster {
        board: usize,
        player: String,
        team: String,
    },
    /// A player on two boards of one match (OGR 10.4).
    TwoBoards { player: String },
    /// A team or a line-up of other than four players (OGR 10.1).
    NotFourPlayers { given: usize },
    /// A team name another team of the event has.
    TeamNameTaken { name: String },
    /// A player named who is not in the event.
    NotInEvent,
    /// A player id that is no player of the event.
    UnknownPlayer { id: i32 },
    /// A player listed twice in one team.
    ListedTwice { name: String },
    /// A player who plays for another team already.
    InOtherTeam { name: String, team: String },
    /// The same player named twice where two are wanted.
    SamePlayer { name: String },
    /// A kept-apart pair that already holds over some of these rounds.
    AlreadyKeptApart {
        a: String,
        b: String,
        held: Rounds,
        asked: Rounds,
    },
    /// A waiver with no reason: players must be able to read why.
    NoReason,
    /// A move record longer than a game can take.
    RecordTooLong { bytes: usize, max: usize },
    /// A move record with no moves.
    RecordEmpty,
    /// A NUL character on line `line` of a move record.
    RecordNul { line: usize },
    /// A ruling that keeps a result the game does not have.
    NothingToKeep,
    /// A ruling "the board's result" where no record ends on the board.
    NoBoardResult,
    /// A ruling "the board's result" where the players' records end
    /// differently.
    RecordsDisagree {
        dark: crate::results::game::GameResult,
        light: crate::results::game::GameResult,
    },
    /// A ruling that sets another result without saying why.
    ReasonRequired,
    /// A pairing's score that is not one (`2-0`, `1½-½`).
    NotAScore { text: String },
    /// A pairing's score whose sides do not add up to its games.
    ScoreNotGames { text: String, games: u32 },
    /// A game's records are full: at most `max_kb` are kept.
    RecordsFull { held_kb: usize, max_kb: usize },
    /// A player sent the referee's copy of a record.
    NotAPlayersSide,
    /// A ruling that sets a result names none.
    NoResult,
    /// A TRF of a team event (TRF describes individual games).
    TeamEventTrf,
    /// An `Idempotency-Key` header that is not 1 to 255 visible characters.
    NotAnIdempotencyKey { text: String },
    /// An `Idempotency-Key` sent before with another request.
    IdempotencyKeyReused,
    /// A quick entry at the results desk that is not a table and a score
    /// (`7 4-2`).
    NotAQuickEntry { text: String },
    /// A quick entry's table that is not a number.
    NotATable { text: String },
    /// A quick entry's table where no two players sit this round.
    NoTable { table: i32 },
    /// A quick entry's score that `problem` refuses, at `table`.
    AtTable { table: i32, problem: Box<Problem> },
    /// A quick entry for a table playing tiebreak set `set` (of two games)
    /// after its main games ended `level`, whose score is not one of a set.
    NotASetScore {
        table: i32,
        level: String,
        set: usize,
        text: String,
    },
    /// A problem in an event file, at a place in it (`players[3].rating`).
    InFile {
        at: String,
        problem: Box<FileProblem>,
    },
}

/// What a list asked to choose from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Chosen {
    Player,
    Referee,
    /// The player on a board of a team's line-up.
    BoardPlayer {
        board: usize,
    },
    /// Whose record a referee enters: dark, light or the referee's own.
    RecordSide,
    /// A referee's ruling: keep, board or other.
    Ruling,
    /// Which player a record sent through a table's link is from.
    PlayerSide,
    /// An account's role: admin or referee.
    Role,
    FirstPlayer,
    SecondPlayer,
}

/// What is wrong with an event file being imported.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileProblem {
    TooBig {
        mb: usize,
        max_mb: usize,
    },
    /// The text is not JSON, or not an event; `reason` is the reader's.
    NotJson {
        reason: String,
    },
    NotAnEvent {
        reason: String,
    },
    /// The file is another format, or says none.
    OtherFormat {
        found: Option<String>,
        wanted: &'static str,
    },
    OtherVersion {
        found: Option<u64>,
        reads: u64,
    },
    /// A NUL character, which no database stores.
    Nul,
    /// Two rows of one table with one id.
    SameId {
        id: i32,
        first: String,
    },
    /// A number outside `min..=max` (`max` none: no upper bound).
    Number {
        value: i32,
        min: i32,
        max: Option<i32>,
    },
    /// A player listed in two teams.
    InTwoTeams {
        player: i32,
        team: i32,
        first: String,
    },
    /// A replacement who is not on the team's roster.
    NotOnRoster {
        player: String,
        team: String,
    },
    /// A reference to a row the file does not hold.
    Missing {
        table: &'static str,
        id: i32,
    },
    /// A value no Kraal knows.
    Unknown(crate::named::UnknownName),
    /// A value the reader could not read (`reason` is the reader's).
    Unreadable {
        reason: String,
    },
    /// A field's own rule, as forms check it.
    Field(FieldError),
}

impl FileProblem {
    /// This problem at `at` in the file, as the import reports it.
    pub fn at(self, at: impl Into<String>) -> FieldError {
        FieldError::new(
            "file",
            Problem::InFile {
                at: at.into(),
                problem: Box::new(self),
            },
        )
    }
}
