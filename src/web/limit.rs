//! Rate limits for what anyone may reach without an account: the players'
//! record links (one per pairing) and their personal links (one per
//! player). Each app process counts the requests it served in a sliding
//! window, by link and by client address; a request over a limit is
//! answered 429 with `Retry-After`.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use actix_web::HttpRequest;

use super::error::AppError;

/// How many requests a key may make in a window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub max: usize,
    pub window: Duration,
}

const MINUTE: Duration = Duration::from_secs(60);

/// Records sent through one pairing's link: a six-game pairing's two
/// players sending each record, and again after a slip, stay well under.
pub const RECORDS_PER_LINK: Limit = Limit {
    max: 12,
    window: MINUTE,
};
/// Records sent from one address, over every link.
pub const RECORDS_PER_CLIENT: Limit = Limit {
    max: 30,
    window: MINUTE,
};
/// Views of one link's page.
pub const VIEWS_PER_LINK: Limit = Limit {
    max: 60,
    window: MINUTE,
};
/// Views of link pages from one address (a wrong key counts too).
pub const VIEWS_PER_CLIENT: Limit = Limit {
    max: 120,
    window: MINUTE,
};

/// Reports and next-round words sent through one player's personal link:
/// a six-game pairing's reports, a few corrections and a check-out.
pub const WRITES_PER_KEY: Limit = Limit {
    max: 20,
    window: MINUTE,
};
/// Reports sent from one address, over every key. A venue's Wi-Fi puts
/// every phone behind one address: 200 players each reporting two games
/// and checking out within a minute stay under it, a script flooding the
/// server does not.
pub const WRITES_PER_CLIENT: Limit = Limit {
    max: 600,
    window: MINUTE,
};
/// Views of personal pages from one address (the same venue Wi-Fi).
pub const LOOKS_PER_CLIENT: Limit = Limit {
    max: 1200,
    window: MINUTE,
};

/// The recent requests of every key, per process.
#[derive(Default)]
pub struct Limiter {
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
}

impl Limiter {
    /// Keys kept before the idle ones are forgotten.
    const KEYS: usize = 20_000;

    /// Counts a request of `key` at `now`, or says how long until it may
    /// be made again (a refused request does not count).
    pub fn hit(&self, key: &str, limit: Limit, now: Instant) -> Result<(), Duration> {
        let mut map = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= Self::KEYS && !map.contains_key(key) {
            map.retain(|_, q| {
                q.back()
                    .is_some_and(|t| now.duration_since(*t) < MINUTE * 10)
            });
        }
        let q = map.entry(key.to_string()).or_default();
        while q
            .front()
            .is_some_and(|t| now.duration_since(*t) >= limit.window)
        {
            q.pop_front();
        }
        if q.len() >= limit.max {
            let oldest = q[q.len() - limit.max];
            return Err(limit.window.saturating_sub(now.duration_since(oldest)));
        }
        q.push_back(now);
        Ok(())
    }

    /// Counts one request through the players' link of `pairing`: a record
    /// sent (`record`) or a view of the page.
    pub fn player_link(
        &self,
        pairing: i32,
        req: &HttpRequest,
        record: bool,
    ) -> Result<(), AppError> {
        let kind = if record {
            Kind::new(
                "record",
                RECORDS_PER_LINK,
                RECORDS_PER_CLIENT,
                "records sent",
            )
        } else {
            Kind::new("view", VIEWS_PER_LINK, VIEWS_PER_CLIENT, "requests")
        };
        self.count(
            kind,
            &format!("link {pairing}"),
            "through this table's link",
            req,
        )
    }

    /// Counts one request through a player's personal link `key`: a report
    /// or a word on the next round (`write`), or a view. A wrong key counts
    /// like a right one: guessing is as slow as using.
    pub fn personal(&self, key: &str, req: &HttpRequest, write: bool) -> Result<(), AppError> {
        let kind = if write {
            Kind::new(
                "personal write",
                WRITES_PER_KEY,
                WRITES_PER_CLIENT,
                "reports",
            )
        } else {
            Kind::new(
                "personal look",
                VIEWS_PER_LINK,
                LOOKS_PER_CLIENT,
                "requests",
            )
        };
        // Keys are counted by a prefix: enough to tell links apart, and a
        // flood of made-up keys does not grow the table by their length.
        let short: String = key.chars().take(16).collect();
        self.count(kind, &format!("key {short}"), "through this link", req)
    }

    /// Counts a request of `kind` from the request's address, then through
    /// `link`; the first limit reached refuses it, saying how long to wait.
    fn count(
        &self,
        kind: Kind,
        link: &str,
        whose_link: &str,
        req: &HttpRequest,
    ) -> Result<(), AppError> {
        let now = Instant::now();
        let client = req
            .peer_addr()
            .map_or_else(|| "unknown".to_string(), |a| a.ip().to_string());
        let refused = |wait: Duration, whose: &str| {
            let secs = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
            AppError::RateLimited {
                message: format!(
                    "Too many {} {whose} in a minute: wait {secs} s and try again.",
                    kind.what
                ),
                retry_after: secs,
            }
        };
        self.hit(
            &format!("{} client {client}", kind.name),
            kind.per_client,
            now,
        )
        .map_err(|w| refused(w, "from this device"))?;
        self.hit(&format!("{} {link}", kind.name), kind.per_link, now)
            .map_err(|w| refused(w, whose_link))
    }
}

/// One kind of request through a link: its name among the counted keys,
/// its limits per link and per address, and what it is called when refused.
struct Kind {
    name: &'static str,
    per_link: Limit,
    per_client: Limit,
    what: &'static str,
}

impl Kind {
    fn new(name: &'static str, per_link: Limit, per_client: Limit, what: &'static str) -> Kind {
        Kind {
            name,
            per_link,
            per_client,
            what,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_over_its_limit_waits_for_its_oldest_request_to_leave_the_window() {
        let limiter = Limiter::default();
        let limit = Limit {
            max: 3,
            window: Duration::from_secs(60),
        };
        let start = Instant::now();
        for i in 0..3 {
            assert_eq!(
                limiter.hit("link 7", limit, start + Duration::from_secs(i * 10)),
                Ok(())
            );
        }
        let wait = limiter
            .hit("link 7", limit, start + Duration::from_secs(30))
            .unwrap_err();
        assert_eq!(wait, Duration::from_secs(30));
        // Another key is not held up, and the refused try did not count.
        assert_eq!(limiter.hit("link 8", limit, start), Ok(()));
        assert_eq!(
            limiter.hit("link 7", limit, start + Duration::from_secs(60)),
            Ok(())
        );
    }
}
