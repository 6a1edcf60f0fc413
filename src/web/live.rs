//! Live pages: the round, standings, crosstable and player pages follow the
//! tournament as results arrive, through server-sent events.
//!
//! One watcher per process reads the revisions of the tournaments someone
//! is looking at, in one query at most every [`Live::TICK`], and fans every
//! change out through one broadcast channel; an open page costs a channel
//! receiver, never a database query of its own. The watcher thread runs
//! only while pages are open.
//!
//! The live boards follow the games recorded at the board the same way:
//! the watcher reads the live counters of the rounds someone watches
//! (`db::plies::live_in`, one query a tick), and for each game that moved
//! reads the game once and sends its viewers the ply as JSON. A ply
//! costs one read whatever the number of viewers, and never the
//! tournament's revision: its standings and pages are not rebuilt.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::http::header::{self, ContentEncoding};
use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use tokio::sync::broadcast;

use super::ctx::Ctx;
use super::{AppError, AppState};
use crate::director::model::Pool;
use crate::director::recording::Kept;
use crate::ids::{GameId, RoundId, TournamentId};
use crate::results::GameResult;

/// What the watcher tells open pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Tournament `tournament` is at `revision` now.
    Changed {
        tournament: TournamentId,
        revision: i32,
    },
    /// Nothing changed for a while: keeps idle connections (and the proxies
    /// between) awake, and finds the ones that went away.
    Ping,
    /// The server is stopping: every open page's stream ends, so that an
    /// open page does not hold the process up (the page reconnects to
    /// whichever process serves next).
    Stop,
}

#[derive(Default)]
struct Watch {
    /// Open pages of this tournament.
    pages: usize,
    /// The last revision seen, once the watcher has read it.
    revision: Option<i32>,
}

/// What a live board's stream is told: a ply of its game (or round), as
/// the JSON its viewers are sent; a ping; the server stopping.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Board {
    Ply(Arc<str>),
    Ping,
    Stop,
}

/// A channel of live boards: one game's viewers, or a round's feed. A ply
/// wakes only the streams of its game and of its round's feeds, never the
/// viewers of the other games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Channel {
    Game(GameId),
    Round(RoundId),
}

/// A watched round's games recorded at the board.
#[derive(Default)]
struct RoundWatch {
    /// Open boards and feeds of this round.
    pages: usize,
    /// Each game's counter and result as last read.
    seen: HashMap<GameId, (i32, Option<GameResult>)>,
}

struct Inner {
    tx: broadcast::Sender<Event>,
    watched: Mutex<HashMap<TournamentId, Watch>>,
    rounds: Mutex<HashMap<RoundId, RoundWatch>>,
    boards: Mutex<HashMap<Channel, broadcast::Sender<Board>>>,
    kept: Kept,
    running: AtomicBool,
    stopping: AtomicBool,
}

/// The process's watcher and its channel.
#[derive(Clone)]
pub struct Live(Arc<Inner>);

impl Default for Live {
    fn default() -> Live {
        Live::new(Kept::default())
    }
}

impl Live {
    /// The watcher, reading games recorded at the board through `kept`.
    pub fn new(kept: Kept) -> Live {
        let (tx, _) = broadcast::channel(1024);
        Live(Arc::new(Inner {
            tx,
            watched: Mutex::new(HashMap::new()),
            rounds: Mutex::new(HashMap::new()),
            boards: Mutex::new(HashMap::new()),
            kept,
            running: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
        }))
    }
}

/// One open live board or feed: its receiver, and its place among the
/// watched.
pub struct BoardSubscription {
    live: Live,
    round: RoundId,
    channel: Channel,
    rx: broadcast::Receiver<Board>,
}

impl Drop for BoardSubscription {
    fn drop(&mut self) {
        self.live.unwatch_round(self.round);
        let mut boards = self.live.boards();
        // This stream's receiver is the last one (it goes with this).
        if boards
            .get(&self.channel)
            .is_some_and(|tx| tx.receiver_count() <= 1)
        {
            boards.remove(&self.channel);
        }
    }
}

impl Live {
    /// One live board or feed of round `round` closed.
    fn unwatch_round(&self, round: RoundId) {
        let mut w = self.rounds();
        if let Some(watch) = w.get_mut(&round) {
            watch.pages = watch.pages.saturating_sub(1);
            if watch.pages == 0 {
                w.remove(&round);
            }
        }
    }
}

/// One open page: its receiver, and its place among the watched.
pub struct Subscription {
    live: Live,
    tournament: TournamentId,
    rx: broadcast::Receiver<Event>,
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut w = self.live.watched();
        if let Some(watch) = w.get_mut(&self.tournament) {
            watch.pages = watch.pages.saturating_sub(1);
            if watch.pages == 0 {
                w.remove(&self.tournament);
            }
        }
    }
}

impl Live {
    /// How often the watcher reads the revisions.
    pub const TICK: Duration = Duration::from_millis(250);
    /// How long a quiet connection waits for a ping.
    pub const PING: Duration = Duration::from_secs(15);

    /// Ends every open page's stream, and those opened from now on: the
    /// server is stopping.
    pub fn stop(&self) {
        self.0.stopping.store(true, Ordering::SeqCst);
        let _ = self.0.tx.send(Event::Stop);
        self.tell_boards(Board::Stop);
    }

    fn stopping(&self) -> bool {
        self.0.stopping.load(Ordering::SeqCst)
    }

    fn watched(&self) -> std::sync::MutexGuard<'_, HashMap<TournamentId, Watch>> {
        self.0.watched.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn rounds(&self) -> std::sync::MutexGuard<'_, HashMap<RoundId, RoundWatch>> {
        self.0.rounds.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts the watcher if it is not running.
    fn run(&self, pool: &Pool) {
        if !self.0.running.swap(true, Ordering::SeqCst) {
            let (live, pool) = (self.clone(), pool.clone());
            std::thread::Builder::new()
                .name("kraal-live".into())
                .spawn(move || live.watch(pool))
                .expect("start the live pages' watcher");
        }
    }

    fn boards(&self) -> std::sync::MutexGuard<'_, HashMap<Channel, broadcast::Sender<Board>>> {
        self.0.boards.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens a live board's subscription to round `round`'s games recorded
    /// at the board: to game `game`'s plies, or (`None`) to every game's,
    /// starting the watcher if need be.
    fn follow_round(&self, round: RoundId, game: Option<GameId>, pool: &Pool) -> BoardSubscription {
        let channel = game.map_or(Channel::Round(round), Channel::Game);
        let rx = self
            .boards()
            .entry(channel)
            .or_insert_with(|| broadcast::channel(64).0)
            .subscribe();
        self.rounds().entry(round).or_default().pages += 1;
        self.run(pool);
        BoardSubscription {
            live: self.clone(),
            round,
            channel,
            rx,
        }
    }

    /// Tells every live board's stream `what`.
    fn tell_boards(&self, what: Board) {
        for tx in self.boards().values() {
            let _ = tx.send(what.clone());
        }
    }

    /// Opens a page's subscription to tournament `tournament`, starting the
    /// watcher if it is not running. Returns the revision already known.
    pub fn subscribe(&self, tournament: TournamentId, pool: &Pool) -> (Subscription, Option<i32>) {
        let rx = self.0.tx.subscribe();
        let known = {
            let mut w = self.watched();
            let watch = w.entry(tournament).or_default();
            watch.pages += 1;
            watch.revision
        };
        self.run(pool);
        (
            Subscription {
                live: self.clone(),
                tournament,
                rx,
            },
            known,
        )
    }

    /// The watcher: reads the watched revisions every tick, announces the
    /// ones that moved, pings now and then, and stops when no page is open.
    fn watch(self, pool: Pool) {
        let mut last_ping = Instant::now();
        let mut idle_since: Option<Instant> = None;
        loop {
            std::thread::sleep(Self::TICK);
            let ids: Vec<TournamentId> = self.watched().keys().copied().collect();
            let rounds: Vec<RoundId> = self.rounds().keys().copied().collect();
            if ids.is_empty() && rounds.is_empty() {
                let since = *idle_since.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_secs(5) {
                    self.0.running.store(false, Ordering::SeqCst);
                    // A page may have opened between the check and the stop.
                    let none = self.watched().is_empty() && self.rounds().is_empty();
                    if none || self.0.running.swap(true, Ordering::SeqCst) {
                        return;
                    }
                }
                continue;
            }
            idle_since = None;
            if !rounds.is_empty() {
                self.games(&pool, &rounds);
            }
            if ids.is_empty() {
                continue;
            }
            let read = pool
                .get()
                .map_err(crate::director::model::DbError::from)
                .and_then(|mut c| crate::director::tournaments::revisions(&mut c, &ids));
            match read {
                Ok(list) => {
                    let mut w = self.watched();
                    for (tournament, revision) in list {
                        if let Some(watch) = w.get_mut(&tournament) {
                            if watch.revision != Some(revision) {
                                watch.revision = Some(revision);
                                let _ = self.0.tx.send(Event::Changed {
                                    tournament,
                                    revision,
                                });
                            }
                        }
                    }
                }
                Err(e) => tracing::warn!("live pages: revisions could not be read: {e}"),
            }
            if last_ping.elapsed() >= Self::PING {
                last_ping = Instant::now();
                let _ = self.0.tx.send(Event::Ping);
                self.tell_boards(Board::Ping);
            }
        }
    }
}

impl Live {
    /// Reads the live counters of the watched `rounds`, and sends each
    /// game that moved to its viewers.
    fn games(&self, pool: &Pool, rounds: &[RoundId]) {
        let mut conn = match pool.get() {
            Ok(c) => c,
            Err(e) => {
                tracing::warn!("live boards: no connection: {e}");
                return;
            }
        };
        let counters = match crate::director::recording::live_in(&mut conn, rounds) {
            Ok(list) => list,
            Err(e) => {
                tracing::warn!("live boards: counters could not be read: {e}");
                return;
            }
        };
        let moved: Vec<_> = {
            let mut w = self.rounds();
            counters
                .into_iter()
                .filter(|c| {
                    let Some(watch) = w.get_mut(&c.round) else {
                        return false;
                    };
                    let now = (c.version, c.result);
                    watch.seen.insert(c.game, now) != Some(now)
                })
                .collect()
        };
        for c in moved {
            match crate::director::recording::recorded_game(&mut conn, &self.0.kept, c.game) {
                Ok(g) => {
                    let json = super::views::board::live_event(&g).to_string();
                    let json: Arc<str> = json.into();
                    let boards = self.boards();
                    for channel in [Channel::Game(c.game), Channel::Round(c.round)] {
                        if let Some(tx) = boards.get(&channel) {
                            let _ = tx.send(Board::Ply(json.clone()));
                        }
                    }
                }
                // A game of a round no longer public: nothing to show.
                Err(e) => tracing::debug!("live boards: game {} not read: {e}", c.game),
            }
        }
    }
}

fn changed(revision: i32) -> Bytes {
    Bytes::from(format!("event: changed\ndata: {revision}\n\n"))
}

/// `GET /t/{tid}/events`: a `changed` event with the tournament's revision
/// whenever it moves (and once at the start, as soon as it is known).
pub async fn events(
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let tid = path.into_inner();
    let (sub, known) = state.live.subscribe(tid, &state.pool);
    let mut first = Bytes::from_static(b"retry: 2000\n\n").to_vec();
    if let Some(r) = known {
        first.extend_from_slice(&changed(r));
    }
    let start =
        futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(Bytes::from(first))));
    let watcher = state.clone();
    let rest = futures_util::stream::unfold(sub, move |mut sub| {
        let state = watcher.clone();
        async move {
            if sub.live.stopping() {
                return None;
            }
            loop {
                match sub.rx.recv().await {
                    Ok(Event::Stop) => return None,
                    // An archived event's stream ends: its pages are no
                    // longer public (its referees' pages open a new one).
                    Ok(Event::Changed { tournament, .. })
                        if tournament == tid && state.archived.known(tid) =>
                    {
                        return None
                    }
                    Ok(Event::Changed {
                        tournament,
                        revision,
                    }) if tournament == tid => return Some((Ok(changed(revision)), sub)),
                    Ok(Event::Ping) => return Some((Ok(Bytes::from_static(b": ping\n\n")), sub)),
                    Ok(_) => continue,
                    // Too slow to read every event: whatever was missed, the
                    // latest revision is what counts.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let known = sub.live.watched().get(&tid).and_then(|w| w.revision);
                        if let Some(r) = known {
                            return Some((Ok(changed(r)), sub));
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                }
            }
        }
    });
    use futures_util::StreamExt;
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(ContentEncoding::Identity)
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(start.chain(rest)))
}

/// Whether the caller may watch `w`'s live boards (`live_boards`): anyone
/// when they are public, the event's referees and the admins when they
/// are the referees'. A caller who may not finds no board at all (404),
/// as for a round not yet published.
pub async fn may_watch(
    state: &AppState,
    ctx: &Ctx,
    w: &crate::director::recording::Watched,
) -> Result<(), AppError> {
    use crate::tournament::LiveBoards;
    let allowed = match w.tournament.live_boards {
        LiveBoards::Public => true,
        LiveBoards::Referees => {
            ctx.is_admin() || super::auth::can_edit(state, ctx, w.tournament.id).await?
        }
        LiveBoards::Off => false,
    };
    if allowed {
        Ok(())
    } else {
        Err(AppError::not_found(crate::refusal::Thing::Game))
    }
}

fn played(json: &str) -> Bytes {
    Bytes::from(format!("event: ply\ndata: {json}\n\n"))
}

/// The plies `sub` follows (its game's, or its round's), as they are
/// played, as an event stream.
fn boards_stream(sub: BoardSubscription) -> HttpResponse {
    let start = futures_util::stream::once(std::future::ready(Ok::<_, Infallible>(
        Bytes::from_static(b"retry: 2000\n\n"),
    )));
    let rest = futures_util::stream::unfold(sub, move |mut sub| async move {
        if sub.live.stopping() {
            return None;
        }
        match sub.rx.recv().await {
            Ok(Board::Stop) | Err(broadcast::error::RecvError::Closed) => None,
            Ok(Board::Ply(json)) => Some((Ok(played(&json)), sub)),
            Ok(Board::Ping) => Some((Ok(Bytes::from_static(b": ping\n\n")), sub)),
            // Too slow to read every ply: the viewer reads the game
            // again (a ply count of none never follows its own).
            Err(broadcast::error::RecvError::Lagged(_)) => {
                let game = match sub.channel {
                    Channel::Game(g) => serde_json::json!(g),
                    Channel::Round(_) => serde_json::Value::Null,
                };
                let json = serde_json::json!({"game": game, "ply": null}).to_string();
                Some((Ok(played(&json)), sub))
            }
        }
    });
    use futures_util::StreamExt;
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(ContentEncoding::Identity)
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(start.chain(rest))
}

/// `GET /t/{tid}/games/{gid}/events`: a `ply` event (JSON, see
/// `views::board::live_event`) whenever game `gid`, recorded at the
/// board, moves.
pub async fn game_events(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, GameId)>,
) -> Result<HttpResponse, AppError> {
    let (tid, gid) = path.into_inner();
    let kept = state.recordings.clone();
    let (w, _, _) = state
        .run(move |c| crate::director::recording::watched_game(c, &kept, Some(tid), gid))
        .await?;
    may_watch(&state, &ctx, &w).await?;
    Ok(boards_stream(state.live.follow_round(
        w.round.id,
        Some(gid),
        &state.pool,
    )))
}

/// `GET /api/v1/tournaments/{tid}/rounds/{n}/live`: a `ply` event (JSON,
/// with its `game`) whenever a game of round n recorded at the board
/// moves: the feed for other sites.
pub async fn round_feed(
    ctx: Ctx,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, crate::ids::RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let w = state
        .run(move |c| crate::director::recording::watched_round(c, tid, n))
        .await?;
    may_watch(&state, &ctx, &w).await?;
    Ok(boards_stream(state.live.follow_round(
        w.round.id,
        None,
        &state.pool,
    )))
}
