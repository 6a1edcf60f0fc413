//! Rate limits for what anyone may reach without an account: the players'
//! record links (one per pairing) and their personal links (one per
//! player). Each app process counts the requests it served in a sliding
//! window, by link and by client address; a request over a limit is
//! answered 429 with `Retry-After`.
//!
//! A link is counted by the whole of its key (hashed), so made-up keys
//! sharing a real key's first digits never hold the real one up. A request
//! counts against its address only until its link is proven: once a link
//! has answered as a link, its requests count against the link alone, so a
//! venue whose phones all come through one address (its Wi-Fi, a reverse
//! proxy) is limited by its players' links, not by their number. A wrong
//! key is never proven: guessing stays limited by the address. The address
//! is the connection's, or, from a proxy the admin listed
//! (`--trusted-proxy`), the one the proxy names in `Forwarded` or
//! `X-Forwarded-For`.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::net::IpAddr;
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
/// Records sent from one address through links not yet proven (every
/// table's first request, a wrong key): a venue of 200 players behind one
/// address, each phone's first request unproven, stays under it three
/// times over, a script guessing keys does not.
pub const RECORDS_PER_CLIENT: Limit = Limit {
    max: 600,
    window: MINUTE,
};
/// Views of one link's page.
pub const VIEWS_PER_LINK: Limit = Limit {
    max: 60,
    window: MINUTE,
};
/// Views of link pages from one address through links not yet proven (a
/// wrong key is never proven).
pub const VIEWS_PER_CLIENT: Limit = Limit {
    max: 1200,
    window: MINUTE,
};

/// Reports and next-round words sent through one player's personal link:
/// a six-game pairing's reports, a few corrections and a check-out.
pub const WRITES_PER_KEY: Limit = Limit {
    max: 20,
    window: MINUTE,
};
/// Reports sent from one address through keys not yet proven. A venue's
/// Wi-Fi puts every phone behind one address: once a phone's key has
/// answered, its reports count against the key alone, so 200 players each
/// reporting six games and correcting a few within a minute stay under
/// it, and a script trying made-up keys does not.
pub const WRITES_PER_CLIENT: Limit = Limit {
    max: 600,
    window: MINUTE,
};
/// Views of personal pages from one address through keys not yet proven
/// (the same venue Wi-Fi).
pub const LOOKS_PER_CLIENT: Limit = Limit {
    max: 1200,
    window: MINUTE,
};

/// The recent requests of every key, per process.
#[derive(Default)]
pub struct Limiter {
    hits: Mutex<HashMap<String, VecDeque<Instant>>>,
    /// The links that answered as links, by the hash of their key, with
    /// when they last did.
    proven: Mutex<HashMap<u64, Instant>>,
    hasher: std::collections::hash_map::RandomState,
    /// The proxies whose word on the client's address is taken.
    trusted: Vec<Network>,
}

impl Limiter {
    /// Keys kept before the idle ones are forgotten.
    const KEYS: usize = 20_000;
    /// How long a proven link stays proven without being used.
    const PROVEN_FOR: Duration = Duration::from_secs(60 * 60);

    /// A limiter that takes the client's address from the proxies `trusted`.
    pub fn trusting(trusted: Vec<Network>) -> Limiter {
        Limiter {
            trusted,
            ..Limiter::default()
        }
    }

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

    fn link_hash(&self, link: &str) -> u64 {
        self.hasher.hash_one(link)
    }

    fn is_proven(&self, link: u64, now: Instant) -> bool {
        let map = self.proven.lock().unwrap_or_else(|e| e.into_inner());
        map.get(&link)
            .is_some_and(|t| now.duration_since(*t) < Self::PROVEN_FOR)
    }

    /// Takes what a link's request came to: a link that answered (anything
    /// but a 404) is proven, and its next requests count against it alone;
    /// a 404 (a wrong, revoked or closed link) takes the proof back.
    fn settle<T>(&self, link: &str, outcome: Result<T, AppError>) -> Result<T, AppError> {
        let h = self.link_hash(link);
        let now = Instant::now();
        let mut map = self.proven.lock().unwrap_or_else(|e| e.into_inner());
        match &outcome {
            Err(AppError::NotFound(_)) => {
                map.remove(&h);
            }
            _ => {
                if map.len() >= Self::KEYS && !map.contains_key(&h) {
                    map.retain(|_, t| now.duration_since(*t) < Self::PROVEN_FOR);
                }
                map.insert(h, now);
            }
        }
        outcome
    }

    /// What a request through the personal link `key` came to (see
    /// [`Limiter::personal`]).
    pub fn personal_answered<T>(
        &self,
        key: &str,
        outcome: Result<T, AppError>,
    ) -> Result<T, AppError> {
        self.settle(&format!("key {key}"), outcome)
    }

    /// What a request through the players' link of `pairing` came to.
    pub fn player_link_answered<T>(
        &self,
        pairing: i32,
        key: &str,
        outcome: Result<T, AppError>,
    ) -> Result<T, AppError> {
        self.settle(&format!("link {pairing} {key}"), outcome)
    }

    /// The client's address: the connection's, or, when the connection
    /// comes from a trusted proxy, the nearest address the proxies name
    /// that is not itself a trusted proxy (`Forwarded: for=`, else
    /// `X-Forwarded-For`, read from the right).
    pub fn client(&self, req: &HttpRequest) -> String {
        let Some(peer) = req.peer_addr().map(|a| a.ip()) else {
            return "unknown".to_string();
        };
        if !self.trusts(peer) {
            return peer.to_string();
        }
        let named = forwarded_for(req);
        let mut client = peer;
        for addr in named.iter().rev() {
            match addr {
                Some(a) => {
                    client = *a;
                    if !self.trusts(*a) {
                        break;
                    }
                }
                // A hop the proxy could not name ("unknown", obfuscated):
                // the chain is not followed past it.
                None => break,
            }
        }
        client.to_string()
    }

    fn trusts(&self, addr: IpAddr) -> bool {
        let addr = canonical(addr);
        self.trusted.iter().any(|n| n.contains(addr))
    }

    /// Counts one request through the players' link of `pairing` with
    /// `key`: a record sent (`record`) or a view of the page. The handler
    /// hands what it came to to [`Limiter::player_link_answered`].
    pub fn player_link(
        &self,
        pairing: i32,
        key: &str,
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
            &format!("link {pairing} {key}"),
            "through this table's link",
            req,
        )
    }

    /// Counts one request through a player's personal link `key`: a report
    /// or a word on the next round (`write`), or a view. Until the key has
    /// answered as a player's, it counts against the address too, so a
    /// wrong key is limited by its address; the handler hands what the
    /// request came to to [`Limiter::personal_answered`].
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
        self.count(kind, &format!("key {key}"), "through this link", req)
    }

    /// Counts a request of `kind` from the request's address while `link`
    /// is not proven, then through `link` (by the hash of the whole of it,
    /// so a flood of made-up keys does not grow the table by their length);
    /// the first limit reached refuses it, saying how long to wait.
    fn count(
        &self,
        kind: Kind,
        link: &str,
        whose_link: &str,
        req: &HttpRequest,
    ) -> Result<(), AppError> {
        let now = Instant::now();
        let h = self.link_hash(link);
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
        if !self.is_proven(h, now) {
            let client = self.client(req);
            self.hit(
                &format!("{} client {client}", kind.name),
                kind.per_client,
                now,
            )
            .map_err(|w| refused(w, "from this device"))?;
        }
        self.hit(&format!("{} {h:016x}", kind.name), kind.per_link, now)
            .map_err(|w| refused(w, whose_link))
    }
}

/// An address or a network of them (`10.0.0.0/8`, `::1`), as the admin
/// lists trusted proxies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Network {
    addr: IpAddr,
    prefix: u8,
}

impl Network {
    /// Reads `192.0.2.7`, `192.0.2.0/24`, `2001:db8::/32`.
    pub fn parse(text: &str) -> Result<Network, String> {
        let text = text.trim();
        let (addr, prefix) = match text.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (text, None),
        };
        let addr: IpAddr = addr
            .parse()
            .map_err(|_| format!("'{text}' is not an IP address or network"))?;
        let addr = canonical(addr);
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match prefix {
            None => max,
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("'{text}': the prefix length is 0 to {max}"))?,
        };
        Ok(Network { addr, prefix })
    }

    fn contains(&self, addr: IpAddr) -> bool {
        match (self.addr, addr) {
            (IpAddr::V4(n), IpAddr::V4(a)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(n) & mask == u32::from(a) & mask
            }
            (IpAddr::V6(n), IpAddr::V6(a)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(n) & mask == u128::from(a) & mask
            }
            _ => false,
        }
    }
}

/// An IPv4 address mapped into IPv6 (`::ffff:192.0.2.7`) as the IPv4 one.
fn canonical(addr: IpAddr) -> IpAddr {
    match addr {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// The addresses the proxies name, nearest the client first: `Forwarded`'s
/// `for=` when the request has that header, else `X-Forwarded-For`. A hop
/// that is not an address (`unknown`, an obfuscated name) is `None`.
fn forwarded_for(req: &HttpRequest) -> Vec<Option<IpAddr>> {
    let headers = req.headers();
    let forwarded: Vec<&str> = headers
        .get_all("forwarded")
        .filter_map(|v| v.to_str().ok())
        .collect();
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|v| v.split(','))
            .filter_map(|element| {
                element.split(';').find_map(|pair| {
                    let (name, value) = pair.trim().split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case("for")
                        .then(|| node_address(value))
                })
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(node_address)
        .collect()
}

/// `192.0.2.7`, `"[2001:db8::1]:4711"`, `192.0.2.7:80`: the address.
fn node_address(value: &str) -> Option<IpAddr> {
    let v = value.trim().trim_matches('"');
    if let Some(rest) = v.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok().map(canonical);
    }
    if let Ok(a) = v.parse::<IpAddr>() {
        return Some(canonical(a));
    }
    let (host, _port) = v.rsplit_once(':')?;
    host.parse().ok().map(canonical)
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

    #[test]
    fn a_trusted_proxy_is_an_address_or_a_network() {
        let net = Network::parse("192.0.2.0/24").unwrap();
        assert!(net.contains("192.0.2.200".parse().unwrap()));
        assert!(!net.contains("192.0.3.1".parse().unwrap()));
        let one = Network::parse(" 10.1.2.3 ").unwrap();
        assert!(one.contains(canonical("::ffff:10.1.2.3".parse().unwrap())));
        assert!(!one.contains("10.1.2.4".parse().unwrap()));
        assert!(Network::parse("2001:db8::/32")
            .unwrap()
            .contains("2001:db8:1::9".parse().unwrap()));
        assert!(Network::parse("0.0.0.0/0")
            .unwrap()
            .contains("203.0.113.9".parse().unwrap()));
        assert!(Network::parse("proxy.local").is_err());
        assert!(Network::parse("10.0.0.0/33").is_err());
    }

    #[test]
    fn a_forwarded_node_is_read_with_its_brackets_quotes_and_port() {
        let v4: IpAddr = "192.0.2.60".parse().unwrap();
        assert_eq!(node_address("192.0.2.60"), Some(v4));
        assert_eq!(node_address(" \"192.0.2.60:8080\""), Some(v4));
        assert_eq!(
            node_address("\"[2001:db8:cafe::17]:4711\""),
            Some("2001:db8:cafe::17".parse().unwrap())
        );
        assert_eq!(node_address("unknown"), None);
        assert_eq!(node_address("_hidden"), None);
    }
}
