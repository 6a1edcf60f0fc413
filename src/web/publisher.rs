//! The venue's sender: keeps every published tournament's copy at its
//! target up to date, off the request path (docs/publishing.md).
//!
//! One thread looks for tournaments whose revision moved past what their
//! target last acknowledged and hands each to its target's worker, which
//! sends the whole event as it is now, so a newer revision simply replaces
//! an older one waiting to go: nothing queues. Each target (scheme, host
//! and port) has its own worker, so a target that is slow, silent or away
//! holds up only its own publications, never another's. What the target
//! acknowledged is stored only after it answered, so a venue killed in the
//! middle of a send sends again after a restart, and the target, which
//! ignores a revision it has, keeps one copy. While the target cannot be
//! reached, or refuses, the sender waits longer each time, up to a minute,
//! and the tournament's page says why. Requests follow the server's one
//! rule for outbound requests (`crate::outbound`): no private address
//! unless the admin allows it, timeouts of seconds, at most a few kB of an
//! answer read, and never the target's own words shown.
//!
//! Games recorded at the board go as they move, not in the event file:
//! once the target has the event as it is now, each game whose live
//! counter moved past what the target took is sent alone (its two
//! records, a few kB), so the federation's live boards follow the venue's.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::director::model::Pool;
use crate::director::publications;
use crate::outbound::Policy;
use crate::remote::Failure;

/// How often the sender looks for a change to send.
const LOOK_EVERY: Duration = Duration::from_millis(200);
/// The longest wait between two tries at a failing target.
pub const MAX_BACKOFF: Duration = Duration::from_secs(60);

/// How this venue names itself and links its events at a target.
#[derive(Debug, Clone)]
pub struct Venue {
    pub name: String,
    /// The venue's own address, for the link back (`None`: no link).
    pub url: Option<String>,
}

/// The wait after `failures` failed sends in a row: 1 s, 2 s, 4 s, ... a
/// minute at most.
pub fn backoff(failures: i32) -> Duration {
    let exp = failures.clamp(1, 16) as u32 - 1;
    Duration::from_secs(1u64 << exp).min(MAX_BACKOFF)
}

/// The worker a target's publications go through: its scheme, host and
/// port (`http://fed.example` and `http://fed.example:80/kraal` share one).
pub fn worker_of(target: &str) -> String {
    let (scheme, rest) = target.split_once("://").unwrap_or(("http", target));
    let authority = rest.split('/').next().unwrap_or(rest).to_ascii_lowercase();
    let default_port = if scheme == "https" { "443" } else { "80" };
    let has_port = match authority.rfind(']') {
        Some(end) => authority[end..].contains(':'),
        None => authority.contains(':'),
    };
    if has_port {
        format!("{scheme}://{authority}")
    } else {
        format!("{scheme}://{authority}:{default_port}")
    }
}

/// Why a send did not land.
#[derive(Debug)]
enum NotSent {
    /// This venue could not read (or write out) its own event.
    Event(String),
    /// The target could not be reached, or refused.
    Target(Failure),
}

impl std::fmt::Display for NotSent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotSent::Event(e) => write!(f, "cannot read the event: {e}"),
            NotSent::Target(failure) => write!(f, "{failure}"),
        }
    }
}

/// What the look and the workers share: the targets a worker is busy
/// with. When a failing publication may be tried again is read from its
/// row ([`waiting`]), so that a referee's "Send now", which clears the
/// failures, is taken at the next look.
#[derive(Default)]
struct Shared {
    busy: HashSet<String>,
}

/// Whether `p` failed last and its wait ([`backoff`] after its failures
/// in a row, counted from its last try) is not over yet.
fn waiting(p: &crate::director::model::Publication, now: chrono::NaiveDateTime) -> bool {
    match (p.failures, p.last_attempt_at) {
        (f, Some(at)) if f > 0 => {
            let wait = chrono::Duration::from_std(backoff(f)).unwrap_or(chrono::Duration::MAX);
            now < at + wait
        }
        _ => false,
    }
}

/// Starts the sender on a thread of its own; `policy` says where its
/// requests may go.
pub fn start(pool: Pool, venue: Venue, policy: Policy) {
    let started = std::thread::Builder::new()
        .name("kraal-publisher".into())
        .spawn(move || run(pool, venue, policy));
    if let Err(e) = started {
        tracing::error!(target: "kraal::publish", "cannot start the publisher: {e}");
    }
}

fn run(pool: Pool, venue: Venue, policy: Policy) {
    let shared = Arc::new(Mutex::new(Shared::default()));
    let venue = Arc::new(venue);
    loop {
        std::thread::sleep(LOOK_EVERY);
        let due = match pool.get().map_err(crate::director::model::DbError::from) {
            Ok(mut conn) => publications::due(&mut conn),
            Err(e) => Err(e),
        };
        let due = match due {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(target: "kraal::publish", "cannot read the publications: {e}");
                continue;
            }
        };
        // The games recorded at the board whose records the target lacks,
        // for the publications whose event it has as it is now.
        let live = match pool.get().map_err(crate::director::model::DbError::from) {
            Ok(mut conn) => live_due(&mut conn),
            Err(e) => Err(e),
        };
        let live = live.unwrap_or_else(|e| {
            tracing::warn!(target: "kraal::publish", "cannot read the games to send: {e}");
            Vec::new()
        });
        // The publications due now, by target, for the targets no worker
        // is busy with.
        let mut by_target: HashMap<String, Vec<Job>> = HashMap::new();
        {
            let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
            let now = crate::director::now();
            let jobs = due
                .into_iter()
                .map(|(p, _)| Job::Event(p))
                .chain(live.into_iter().map(|(p, games)| Job::Games(p, games)));
            for job in jobs {
                let p = job.publication();
                let key = worker_of(&p.target);
                if s.busy.contains(&key) || waiting(p, now) {
                    continue;
                }
                by_target.entry(key).or_default().push(job);
            }
            for key in by_target.keys() {
                s.busy.insert(key.clone());
            }
        }
        for (key, publications) in by_target {
            let (pool, venue, shared) = (pool.clone(), venue.clone(), shared.clone());
            let worker = std::thread::Builder::new()
                .name("kraal-publish-to".into())
                .spawn({
                    let key = key.clone();
                    let shared = shared.clone();
                    move || {
                        for job in publications {
                            match job {
                                Job::Event(p) => send_and_store(&pool, &venue, policy, &p),
                                Job::Games(p, games) => send_games(&pool, policy, &p, games),
                            }
                        }
                        let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
                        s.busy.remove(&key);
                    }
                });
            if let Err(e) = worker {
                tracing::warn!(target: "kraal::publish", "cannot start a sender for {key}: {e}");
                let mut s = shared.lock().unwrap_or_else(PoisonError::into_inner);
                s.busy.remove(&key);
            }
        }
    }
}

/// What a target's worker sends.
enum Job {
    /// The whole event, as it is now.
    Event(crate::director::model::Publication),
    /// Games recorded at the board, each its records as they are now.
    Games(
        crate::director::model::Publication,
        Vec<crate::director::recording::RecordsToSend>,
    ),
}

impl Job {
    fn publication(&self) -> &crate::director::model::Publication {
        match self {
            Job::Event(p) | Job::Games(p, _) => p,
        }
    }
}

/// The active publications whose target has the event as it is now and
/// lacks some game's records, with those records.
fn live_due(
    conn: &mut crate::director::model::DbConnection,
) -> Result<
    Vec<(
        crate::director::model::Publication,
        Vec<crate::director::recording::RecordsToSend>,
    )>,
    crate::director::model::DbError,
> {
    let mut out = Vec::new();
    for (p, revision) in publications::active(conn)? {
        if p.published_revision != Some(revision) {
            continue;
        }
        let games = crate::director::recording::records_to_send(conn, p.tournament_id, p.id)?;
        if !games.is_empty() {
            out.push((p, games));
        }
    }
    Ok(out)
}

/// Sends each of `games`' records to `p`'s target, in order, and stores
/// what the target took; the first failure stops the rest until the
/// sender's next try.
fn send_games(
    pool: &Pool,
    policy: Policy,
    p: &crate::director::model::Publication,
    games: Vec<crate::director::recording::RecordsToSend>,
) {
    for g in games {
        let url = format!(
            "{}/api/v1/published/{}/games/{}/{}/{}",
            p.target.trim_end_matches('/'),
            p.origin_id,
            g.place.round,
            g.place.table,
            g.place.number
        );
        let body = serde_json::json!({ "dark": g.dark, "light": g.light }).to_string();
        let sent = crate::outbound::put(policy, &url, &p.token, body.as_bytes());
        let stored = pool
            .get()
            .map_err(crate::director::model::DbError::from)
            .and_then(|mut conn| match &sent {
                Ok(_) => {
                    crate::director::recording::records_sent(&mut conn, p.id, g.game, g.version)?;
                    // A send that lands ends a run of failures, as an
                    // event's does.
                    match p.published_revision {
                        Some(r) => publications::acknowledged(&mut conn, p.id, &p.target, r),
                        None => Ok(()),
                    }
                }
                Err(failure) => {
                    tracing::info!(target: "kraal::publish", "tournament {}, game {}: {failure}", p.tournament_id, g.game);
                    publications::failed(&mut conn, p.id, &failure.to_string())
                }
            });
        if let Err(e) = stored {
            tracing::warn!(target: "kraal::publish", "cannot store what was sent: {e}");
        }
        if sent.is_err() {
            return;
        }
    }
}

/// Sends `p`'s event and stores what came of it.
fn send_and_store(
    pool: &Pool,
    venue: &Venue,
    policy: Policy,
    p: &crate::director::model::Publication,
) {
    let outcome = send(pool, venue, policy, p);
    let stored = pool
        .get()
        .map_err(crate::director::model::DbError::from)
        .and_then(|mut conn| match &outcome {
            Ok(revision) => publications::acknowledged(&mut conn, p.id, &p.target, *revision),
            Err(error) => {
                tracing::info!(target: "kraal::publish", "tournament {}: {error}", p.tournament_id);
                publications::failed(&mut conn, p.id, &error.to_string())
            }
        });
    if let Err(e) = stored {
        tracing::warn!(target: "kraal::publish", "cannot store the publication's state: {e}");
    }
}

/// Sends the tournament as it is now; the revision the target took. No
/// database connection is held while the target is asked.
fn send(
    pool: &Pool,
    venue: &Venue,
    policy: Policy,
    p: &crate::director::model::Publication,
) -> Result<i32, NotSent> {
    let file = {
        let mut conn = pool.get().map_err(|e| NotSent::Event(e.to_string()))?;
        crate::director::published::export(&mut conn, p.tournament_id)
            .map_err(|e| NotSent::Event(e.to_string()))?
    };
    let revision = file.tournament.revision;
    let link = venue
        .url
        .as_deref()
        .map(|u| format!("{}/t/{}", u.trim_end_matches('/'), p.tournament_id))
        .unwrap_or_default();
    let url = format!(
        "{}/api/v1/published/{}",
        p.target.trim_end_matches('/'),
        p.origin_id
    );
    let body = serde_json::to_vec(&serde_json::json!({
        "revision": revision,
        "server": venue.name,
        "link": link,
        "event": file,
    }))
    .map_err(|e| NotSent::Event(e.to_string()))?;
    drop(file);
    crate::outbound::put(policy, &url, &p.token, &body).map_err(NotSent::Target)?;
    Ok(revision)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_up_to_a_minute() {
        let waits: Vec<u64> = (1..=8).map(|f| backoff(f).as_secs()).collect();
        assert_eq!(waits, vec![1, 2, 4, 8, 16, 32, 60, 60]);
        assert_eq!(backoff(1000).as_secs(), 60);
    }

    #[test]
    fn one_worker_per_scheme_host_and_port() {
        assert_eq!(worker_of("http://Fed.example"), "http://fed.example:80");
        assert_eq!(
            worker_of("http://fed.example:80/kraal"),
            "http://fed.example:80"
        );
        assert_eq!(worker_of("https://fed.example"), "https://fed.example:443");
        assert_ne!(
            worker_of("http://127.0.0.1:8081"),
            worker_of("http://127.0.0.1:8082")
        );
        assert_eq!(worker_of("http://[::1]/x"), "http://[::1]:80");
        assert_eq!(worker_of("http://[::1]:8080"), "http://[::1]:8080");
    }
}
