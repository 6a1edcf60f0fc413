//! The venue's sender: keeps every published tournament's copy at its
//! target up to date, off the request path (docs/publishing.md).
//!
//! One thread looks for tournaments whose revision moved past what their
//! target last acknowledged and sends each the whole event as it is now,
//! so a newer revision simply replaces an older one waiting to go: nothing
//! queues. What the target acknowledged is stored only after it answered,
//! so a venue killed in the middle of a send sends again after a restart,
//! and the target, which ignores a revision it has, keeps one copy. While
//! the target cannot be reached, or refuses, the sender waits longer each
//! time, up to a minute, and the tournament's page says why.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use crate::db::{event, publications, Pool};

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

/// Starts the sender on a thread of its own.
pub fn start(pool: Pool, venue: Venue) {
    std::thread::Builder::new()
        .name("kraal-publisher".into())
        .spawn(move || run(pool, venue))
        .expect("start the publisher thread");
}

fn run(pool: Pool, venue: Venue) {
    let agent = ureq::AgentBuilder::new()
        // A token is never sent on to another host: a redirect is an
        // answer like any other, and not a success.
        .redirects(0)
        .timeout_connect(Duration::from_secs(5))
        .timeout(Duration::from_secs(120))
        .build();
    let mut next_try: HashMap<i32, Instant> = HashMap::new();
    loop {
        std::thread::sleep(LOOK_EVERY);
        let Ok(mut conn) = pool.get() else { continue };
        let due = match publications::due(&mut conn) {
            Ok(d) => d,
            Err(e) => {
                tracing::warn!(target: "kraal::publish", "cannot read the publications: {e}");
                continue;
            }
        };
        for (p, _) in due {
            if next_try.get(&p.id).is_some_and(|t| Instant::now() < *t) {
                continue;
            }
            let outcome = send(&agent, &mut conn, &venue, &p);
            let stored = match outcome {
                Ok(revision) => {
                    next_try.remove(&p.id);
                    publications::acknowledged(&mut conn, p.id, revision)
                }
                Err(error) => {
                    next_try.insert(p.id, Instant::now() + backoff(p.failures + 1));
                    tracing::info!(target: "kraal::publish", "tournament {}: {error}", p.tournament_id);
                    publications::failed(&mut conn, p.id, &error)
                }
            };
            if let Err(e) = stored {
                tracing::warn!(target: "kraal::publish", "cannot store the publication's state: {e}");
            }
        }
    }
}

/// Sends the tournament as it is now; the revision the target took.
fn send(
    agent: &ureq::Agent,
    conn: &mut crate::db::DbConnection,
    venue: &Venue,
    p: &publications::Publication,
) -> Result<i32, String> {
    let file =
        event::export(conn, p.tournament_id).map_err(|e| format!("cannot read the event: {e}"))?;
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
    let body = serde_json::json!({
        "revision": revision,
        "server": venue.name,
        "link": link,
        "event": file,
    });
    let answer = agent
        .put(&url)
        .set("Authorization", &format!("Bearer {}", p.token))
        .send_json(body);
    match answer {
        Ok(r) if r.status() == 200 => Ok(revision),
        Ok(r) => Err(format!(
            "{} answered {} {} (a redirect is not followed)",
            p.target,
            r.status(),
            r.status_text()
        )),
        Err(ureq::Error::Status(code, r)) => {
            let said = r
                .into_json::<serde_json::Value>()
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_string))
                .unwrap_or_default();
            Err(format!("{} answered {code}: {said}", p.target))
        }
        Err(ureq::Error::Transport(t)) => Err(format!(
            "cannot reach {}: {}{}",
            p.target,
            t.kind(),
            t.message().map(|m| format!(" ({m})")).unwrap_or_default()
        )),
    }
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
}
