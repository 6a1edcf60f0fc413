//! Live pages: the round, standings, crosstable and player pages follow the
//! tournament as results arrive, through server-sent events.
//!
//! One watcher per process reads the revisions of the tournaments someone
//! is looking at, in one query at most every [`Live::TICK`], and fans every
//! change out through one broadcast channel; an open page costs a channel
//! receiver, never a database query of its own. The watcher thread runs
//! only while pages are open.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use actix_web::http::header::{self, ContentEncoding};
use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use tokio::sync::broadcast;

use super::{AppError, AppState};
use crate::director::model::Pool;
use crate::ids::TournamentId;

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

struct Inner {
    tx: broadcast::Sender<Event>,
    watched: Mutex<HashMap<TournamentId, Watch>>,
    running: AtomicBool,
    stopping: AtomicBool,
}

/// The process's watcher and its channel.
#[derive(Clone)]
pub struct Live(Arc<Inner>);

impl Default for Live {
    fn default() -> Live {
        let (tx, _) = broadcast::channel(1024);
        Live(Arc::new(Inner {
            tx,
            watched: Mutex::new(HashMap::new()),
            running: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
        }))
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
    }

    fn stopping(&self) -> bool {
        self.0.stopping.load(Ordering::SeqCst)
    }

    fn watched(&self) -> std::sync::MutexGuard<'_, HashMap<TournamentId, Watch>> {
        self.0.watched.lock().unwrap_or_else(|e| e.into_inner())
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
        if !self.0.running.swap(true, Ordering::SeqCst) {
            let (live, pool) = (self.clone(), pool.clone());
            std::thread::Builder::new()
                .name("kraal-live".into())
                .spawn(move || live.watch(pool))
                .expect("start the live pages' watcher");
        }
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
            if ids.is_empty() {
                let since = *idle_since.get_or_insert_with(Instant::now);
                if since.elapsed() > Duration::from_secs(5) {
                    self.0.running.store(false, Ordering::SeqCst);
                    // A page may have opened between the check and the stop.
                    if self.watched().is_empty() || self.0.running.swap(true, Ordering::SeqCst) {
                        return;
                    }
                }
                continue;
            }
            idle_since = None;
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
