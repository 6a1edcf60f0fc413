//! Rate limits for what anyone may reach without an account: the players'
//! record links (one per pairing) and their personal links (one per
//! player). Each app process counts the requests it served, by link and by
//! client address, with the generic cell rate algorithm (the `governor`
//! crate): a limit of `max` a minute takes `max` requests at once and gives
//! one back each `1/max` of a minute, so a client keeps to `max` a minute
//! on average and never sends more than `max` at once. A request over a
//! limit is answered 429 with `Retry-After`, the whole seconds until the
//! next one would be taken. (The window this replaced refused the
//! `max + 1`-th request in any minute; GCRA refuses the same burst, but
//! takes the next request a share of the minute after the first rather
//! than a whole one, and keeps one `u64` per key instead of up to `max`
//! instants.)
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

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Mutex, TryLockError};
use std::time::{Duration, Instant};

use actix_web::HttpRequest;
use governor::clock::{Clock, MonotonicClock, Reference};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::keyed::{HashMapStateStore, ShrinkableKeyedStateStore};
use governor::state::{InMemoryState, NotKeyed, StateStore};
use governor::{Quota, RateLimiter};

use super::error::AppError;
use crate::ids::PairingId;
use crate::refusal::{Counted, Through, TooMany};

/// How many requests a key may make in a window: `max` at once, then one
/// more each `window / max` (GCRA: the rate of `max` a window, with a burst
/// of `max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    pub max: u32,
    pub window: Duration,
}

impl Limit {
    /// The most requests one key can have taken in `elapsed` since its
    /// first: the burst, and one more for each share of the window gone by.
    pub fn most_taken_in(self, elapsed: Duration) -> u128 {
        u128::from(self.max) + elapsed.as_nanos() / (self.window / self.max).as_nanos()
    }

    /// The limit as governor's quota: a burst of `max`, one request given
    /// back each `window / max`.
    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.max).expect("every limit allows at least one request");
        Quota::with_period(self.window / self.max)
            .expect("every limit's window is longer than its number of requests in nanoseconds")
            .allow_burst(burst)
    }
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
/// Plies of games recorded at the board through one player's link: five
/// a second, in bursts of sixty (a phone sending what it queued offline),
/// more than any game played over a board.
pub const PLIES_PER_KEY: Limit = Limit {
    max: 60,
    window: Duration::from_secs(12),
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

/// Keys one count holds at most (see [`Bounded`]).
const KEYS: usize = 20_000;

/// A count's keys with one GCRA state each (a `u64`: when the key's next
/// request is due), and no more than [`KEYS`] of them.
///
/// Memory stays bounded under a flood of distinct keys (made-up links, or
/// as many addresses as an IPv6 network has) in two ways. A count forgets
/// its idle keys (governor's `retain_recent`, then `shrink_to_fit`) once a
/// window, and at once (at most once a second) when it is full: a key
/// forgotten that way had its whole allowance back, so forgetting it
/// changes no answer. And a new key that finds the count full, which only
/// [`KEYS`] keys heard from within one window can do, is counted in one
/// state shared by all such keys: the flood is limited as if it were one
/// client, the keys already counted keep their own state, and the memory
/// stays that of [`KEYS`] keys (docs/performance.md has the figures).
struct Bounded<K: Hash + Eq + Clone> {
    keys: HashMapStateStore<K>,
    /// The state of the keys that found the count full.
    shared: InMemoryState,
}

impl<K: Hash + Eq + Clone> Default for Bounded<K> {
    fn default() -> Self {
        Bounded {
            keys: HashMapStateStore::default(),
            shared: InMemoryState::default(),
        }
    }
}

impl<K: Hash + Eq + Clone> StateStore for Bounded<K> {
    type Key = K;

    fn measure_and_replace<T, F, E>(&self, key: &K, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        {
            let mut map = self.keys.lock();
            if let Some(state) = map.get(key) {
                return state.measure_and_replace(&NotKeyed::NonKey, f);
            }
            if map.len() < KEYS {
                return map
                    .entry(key.clone())
                    .or_default()
                    .measure_and_replace(&NotKeyed::NonKey, f);
            }
        }
        self.shared.measure_and_replace(&NotKeyed::NonKey, f)
    }
}

impl<K: Hash + Eq + Clone> ShrinkableKeyedStateStore<K> for Bounded<K> {
    fn retain_recent(&self, drop_below: Nanos) {
        self.keys.retain_recent(drop_below);
    }

    fn shrink_to_fit(&self) {
        ShrinkableKeyedStateStore::shrink_to_fit(&self.keys);
    }

    fn len(&self) -> usize {
        ShrinkableKeyedStateStore::len(&self.keys)
    }

    fn is_empty(&self) -> bool {
        ShrinkableKeyedStateStore::is_empty(&self.keys)
    }
}

/// One limit counted by key (a link's hash, a client's address).
struct Counter<K: Hash + Eq + Clone, C: Clock> {
    gcra: RateLimiter<K, Bounded<K>, C, NoOpMiddleware<C::Instant>>,
    window: Duration,
    /// When the idle keys were last forgotten.
    swept: Mutex<C::Instant>,
}

impl<K: Hash + Eq + Clone, C: Clock> Counter<K, C> {
    fn new(limit: Limit, clock: C) -> Self {
        let swept = Mutex::new(clock.now());
        Counter {
            gcra: RateLimiter::new(limit.quota(), Bounded::default(), clock),
            window: limit.window,
            swept,
        }
    }

    /// Counts a request of `key`, or says how long until it may be made
    /// again (a refused request does not count).
    fn hit(&self, key: &K) -> Result<(), Duration> {
        self.sweep();
        self.gcra
            .check_key(key)
            .map_err(|refused| refused.wait_time_from(self.gcra.clock().now()))
    }

    /// Forgets the keys that have their whole allowance back, once a
    /// window, or once a second while new keys find the count full.
    fn sweep(&self) {
        let mut swept = match self.swept.try_lock() {
            Ok(swept) => swept,
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
            // Another request is sweeping.
            Err(TryLockError::WouldBlock) => return,
        };
        let now = self.gcra.clock().now();
        let since = Duration::from(now.duration_since(*swept));
        if since >= self.window || (since >= Duration::from_secs(1) && self.gcra.len() >= KEYS) {
            self.gcra.retain_recent();
            self.gcra.shrink_to_fit();
            *swept = now;
        }
    }

    /// How many keys the count holds.
    #[cfg(test)]
    fn keys(&self) -> usize {
        self.gcra.len()
    }
}

/// The two counts of one kind of request: by link, and by client address
/// while the link is not proven.
struct Counts<C: Clock> {
    per_link: Counter<u64, C>,
    per_client: Counter<Option<IpAddr>, C>,
}

impl<C: Clock + Clone> Counts<C> {
    fn new(per_link: Limit, per_client: Limit, clock: &C) -> Self {
        Counts {
            per_link: Counter::new(per_link, clock.clone()),
            per_client: Counter::new(per_client, clock.clone()),
        }
    }
}

/// The kinds of request through a link, each counted apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Record,
    View,
    PersonalWrite,
    PersonalLook,
    Ply,
}

impl Kind {
    /// What the refused requests are called.
    fn what(self) -> Counted {
        match self {
            Kind::Record => Counted::Records,
            Kind::PersonalWrite => Counted::Reports,
            Kind::Ply => Counted::Plies,
            Kind::View | Kind::PersonalLook => Counted::Requests,
        }
    }
}

/// The recent requests of every key, per process.
pub struct Limiter<C: Clock = MonotonicClock> {
    record: Counts<C>,
    view: Counts<C>,
    personal_write: Counts<C>,
    personal_look: Counts<C>,
    ply: Counts<C>,
    /// The links that answered as links, by the hash of their key, with
    /// when they last did.
    proven: Mutex<HashMap<u64, Instant>>,
    hasher: std::collections::hash_map::RandomState,
    /// The proxies whose word on the client's address is taken.
    trusted: Vec<Network>,
}

impl Default for Limiter {
    fn default() -> Self {
        Limiter::with_clock(MonotonicClock)
    }
}

impl Limiter {
    /// A limiter that takes the client's address from the proxies `trusted`.
    pub fn trusting(trusted: Vec<Network>) -> Limiter {
        Limiter {
            trusted,
            ..Limiter::default()
        }
    }
}

impl<C: Clock + Clone> Limiter<C> {
    /// Proven links kept before the stale ones are forgotten.
    const PROVEN_KEYS: usize = 20_000;
    /// How long a proven link stays proven without being used.
    const PROVEN_FOR: Duration = Duration::from_secs(60 * 60);

    /// A limiter whose counts read `clock`.
    fn with_clock(clock: C) -> Self {
        Limiter {
            record: Counts::new(RECORDS_PER_LINK, RECORDS_PER_CLIENT, &clock),
            view: Counts::new(VIEWS_PER_LINK, VIEWS_PER_CLIENT, &clock),
            personal_write: Counts::new(WRITES_PER_KEY, WRITES_PER_CLIENT, &clock),
            ply: Counts::new(PLIES_PER_KEY, WRITES_PER_CLIENT, &clock),
            personal_look: Counts::new(VIEWS_PER_LINK, LOOKS_PER_CLIENT, &clock),
            proven: Mutex::default(),
            hasher: std::collections::hash_map::RandomState::default(),
            trusted: Vec::new(),
        }
    }

    fn counts(&self, kind: Kind) -> &Counts<C> {
        match kind {
            Kind::Record => &self.record,
            Kind::View => &self.view,
            Kind::PersonalWrite => &self.personal_write,
            Kind::PersonalLook => &self.personal_look,
            Kind::Ply => &self.ply,
        }
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
            Err(e) if e.is(crate::refusal::Kind::NotFound) => {
                map.remove(&h);
            }
            _ => {
                if map.len() >= Self::PROVEN_KEYS && !map.contains_key(&h) {
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
        pairing: PairingId,
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
        self.client_address(req)
            .map_or_else(|| "unknown".to_string(), |a| a.to_string())
    }

    /// The client's address as [`Limiter::client`] reads it; `None` for a
    /// request that came through no connection.
    fn client_address(&self, req: &HttpRequest) -> Option<IpAddr> {
        let peer = req.peer_addr()?.ip();
        if !self.trusts(peer) {
            return Some(peer);
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
        Some(client)
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
        pairing: PairingId,
        key: &str,
        req: &HttpRequest,
        record: bool,
    ) -> Result<(), AppError> {
        let kind = if record { Kind::Record } else { Kind::View };
        self.count(
            kind,
            &format!("link {pairing} {key}"),
            Through::TableLink,
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
            Kind::PersonalWrite
        } else {
            Kind::PersonalLook
        };
        self.count(kind, &format!("key {key}"), Through::PersonalLink, req)
    }

    /// Counts one ply sent through a player's personal link `key` (a game
    /// recorded at the board), as [`Limiter::personal`] counts the rest.
    pub fn ply(&self, key: &str, req: &HttpRequest) -> Result<(), AppError> {
        self.count(Kind::Ply, &format!("key {key}"), Through::PersonalLink, req)
    }

    /// Counts a request of `kind` from the request's address while `link`
    /// is not proven, then through `link` (by the hash of the whole of it,
    /// so a flood of made-up keys does not grow the table by their length);
    /// the first limit reached refuses it, saying how long to wait.
    fn count(
        &self,
        kind: Kind,
        link: &str,
        whose_link: Through,
        req: &HttpRequest,
    ) -> Result<(), AppError> {
        let h = self.link_hash(link);
        let refused = |wait: Duration, through: Through| {
            let secs = (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1);
            AppError::from(TooMany::Requests {
                what: kind.what(),
                through,
                retry_after: secs,
            })
        };
        let counts = self.counts(kind);
        if !self.is_proven(h, Instant::now()) {
            counts
                .per_client
                .hit(&self.client_address(req))
                .map_err(|w| refused(w, Through::Device))?;
        }
        counts.per_link.hit(&h).map_err(|w| refused(w, whose_link))
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

#[cfg(test)]
mod tests {
    use super::*;

    use crate::refusal::Refusal;
    use actix_web::test::TestRequest;
    use governor::clock::FakeRelativeClock;

    const THREE_A_MINUTE: Limit = Limit {
        max: 3,
        window: Duration::from_secs(60),
    };

    #[test]
    fn a_key_takes_its_burst_then_one_request_each_share_of_the_window() {
        let clock = FakeRelativeClock::default();
        let count = Counter::new(THREE_A_MINUTE, clock.clone());
        for _ in 0..3 {
            assert_eq!(count.hit(&7), Ok(()));
        }
        clock.advance(Duration::from_secs(5));
        // The fourth waits until one request of the three is given back
        // (a third of the window after the first).
        assert_eq!(count.hit(&7), Err(Duration::from_secs(15)));
        // Another key is not held up, and the refused try did not count.
        assert_eq!(count.hit(&8), Ok(()));
        clock.advance(Duration::from_secs(15));
        assert_eq!(count.hit(&7), Ok(()));
        assert_eq!(count.hit(&7), Err(Duration::from_secs(20)));
        // A key left alone for a window has its whole allowance back.
        clock.advance(Duration::from_secs(60));
        for _ in 0..3 {
            assert_eq!(count.hit(&7), Ok(()));
        }
        assert!(count.hit(&7).is_err());
    }

    #[test]
    fn a_full_count_shares_one_state_among_new_keys_and_forgets_idle_ones() {
        let clock = FakeRelativeClock::default();
        let count = Counter::new(THREE_A_MINUTE, clock.clone());
        for key in 0..KEYS as u64 {
            assert_eq!(count.hit(&key), Ok(()));
        }
        assert_eq!(count.keys(), KEYS);
        // Keys past the bound share one state: three of them get in ...
        let flood = KEYS as u64..KEYS as u64 + 10;
        let taken = flood.clone().filter(|k| count.hit(k).is_ok()).count();
        assert_eq!(taken, 3);
        assert_eq!(count.keys(), KEYS);
        // ... while a key already counted keeps its own.
        assert_eq!(count.hit(&0), Ok(()));
        assert_eq!(count.hit(&0), Ok(()));
        assert!(count.hit(&0).is_err());
        // Once the idle keys have their allowance back they are forgotten
        // (a second after the count was found full), and new keys are
        // counted by themselves again.
        clock.advance(Duration::from_secs(50));
        assert_eq!(count.hit(&1), Ok(()));
        assert_eq!(count.keys(), 2, "only keys 0 and 1 were heard from lately");
        for _ in 0..3 {
            assert_eq!(count.hit(&(KEYS as u64 + 1)), Ok(()));
        }
    }

    #[test]
    fn a_refusal_names_what_was_refused_and_whole_seconds_to_wait() {
        let limiter = Limiter::with_clock(FakeRelativeClock::default());
        let phone = TestRequest::default()
            .peer_addr("192.0.2.7:50000".parse().unwrap())
            .to_http_request();
        for _ in 0..WRITES_PER_KEY.max {
            limiter.personal("k1", &phone, true).unwrap();
        }
        match limiter.personal("k1", &phone, true) {
            Err(AppError::Refused(Refusal::TooMany(refused))) => {
                assert_eq!(
                    refused,
                    TooMany::Requests {
                        what: Counted::Reports,
                        through: Through::PersonalLink,
                        retry_after: 3
                    }
                );
            }
            other => panic!("{other:?}"),
        }
        // Made-up keys from one address: the address's limit, and a wait of
        // a tenth of a second is a second.
        let guesser = TestRequest::default()
            .peer_addr("198.51.100.9:50000".parse().unwrap())
            .to_http_request();
        let taken = (0..700)
            .take_while(|i| {
                limiter
                    .personal(&format!("guess{i}"), &guesser, true)
                    .is_ok()
            })
            .count();
        assert_eq!(taken, WRITES_PER_CLIENT.max as usize);
        match limiter.personal("guess-more", &guesser, true) {
            Err(AppError::Refused(Refusal::TooMany(refused))) => {
                assert_eq!(
                    refused,
                    TooMany::Requests {
                        what: Counted::Reports,
                        through: Through::Device,
                        retry_after: 1
                    }
                );
            }
            other => panic!("{other:?}"),
        }
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
