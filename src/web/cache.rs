//! Pages as browsers ask for them: a public page is rendered once per
//! tournament revision and compressed then (gzip and brotli), so a request
//! picks a ready representation instead of compressing; every read carries
//! a strong `ETag` and a matching `If-None-Match` is answered with 304.
//!
//! Two kinds of ETag, both strong and both ending in the encoding (a
//! gzip body and a plain one are different bytes):
//! - a cached public page's is `"p<boot>.<revision>.<encoding>"`: the
//!   process (`boot`, new at each start, so a new build never answers with
//!   an old build's tag) and the tournament revision the page was built
//!   from. It changes exactly when the page can.
//! - any other read (the JSON API, a signed-in referee's page, a CSV) gets
//!   `"h<digest>.<encoding>"` from the bytes it is about to send, made in
//!   [`validate`] after the handler ran, so it changes when the body does.
//!
//! Public pages say `Cache-Control: no-cache` (keep it, ask before using
//! it), never `no-store`; pages only their account may see keep the
//! `no-store` that [`super::auth`] gives them and get no tag.
//!
//! After a change one request rebuilds a page. Requests arriving while it
//! does are of two kinds: an open page revalidating its copy (the change
//! sent it back, with that copy's ETag) waits for the new page; a reader
//! holding no copy gets the one before the change at once, a build's time
//! old, rather than queueing behind the build (its live stream then says a
//! newer revision exists, and the page fetches itself again). So a result
//! reaches every open page, and the readers beside them keep their speed.

use std::collections::HashMap;
use std::io::Write as _;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use crate::ids::TournamentId;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, AcceptEncoding, Encoding, Header, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::middleware::Next;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse};

/// The encodings a page is kept in, best first when a client likes them
/// equally (brotli is the smallest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Brotli,
    Gzip,
    Identity,
}

impl Coding {
    /// As `Content-Encoding` and the ETag say it.
    pub fn token(self) -> &'static str {
        match self {
            Coding::Brotli => "br",
            Coding::Gzip => "gzip",
            Coding::Identity => "identity",
        }
    }

    /// What the client asks for, by `Accept-Encoding` with its q-values
    /// (`identity;q=0`, `*;q=0`, `gzip;q=0.5, br` and so on), among what
    /// Kraal serves. `None`: nothing Kraal has is acceptable (a 406, which
    /// the compression middleware answers before any handler runs).
    pub fn negotiate(req: &HttpRequest) -> Option<Coding> {
        let Ok(accept) = AcceptEncoding::parse(req) else {
            return Some(Coding::Identity);
        };
        let supported = [Encoding::brotli(), Encoding::gzip(), Encoding::identity()];
        let chosen = accept.negotiate(supported.iter())?;
        Some(if chosen == Encoding::brotli() {
            Coding::Brotli
        } else if chosen == Encoding::gzip() {
            Coding::Gzip
        } else {
            Coding::Identity
        })
    }

    /// Whether the client would take gzip, brotli aside.
    fn accepts_gzip(req: &HttpRequest) -> bool {
        let Ok(accept) = AcceptEncoding::parse(req) else {
            return false;
        };
        let supported = [Encoding::gzip(), Encoding::identity()];
        accept.negotiate(supported.iter()) == Some(Encoding::gzip())
    }
}

/// A rendered page in every encoding it is served in, made once.
pub struct Page {
    pub revision: i32,
    identity: Bytes,
    gzip: Bytes,
    /// Made with the page, or just after it is first served (see
    /// [`Page::build`]); until then a client that prefers brotli gets gzip.
    brotli: OnceLock<Bytes>,
    /// `p<boot>.<revision>`: the ETag without its encoding.
    tag: String,
    /// When the copy was made: a page made again soon after is busy.
    pub made: Instant,
}

/// How long after a copy was made a new one counts as made under a busy
/// event (see [`Page::build`]).
pub const BUSY: Duration = Duration::from_secs(2);

impl Page {
    /// Compresses `html` once for every encoding: gzip at its best level,
    /// brotli at quality 9 (within a few per cent of 11 at a fraction of
    /// its time). Brotli takes most of a build's time (some 15 ms of a
    /// 100-table round page, against 1 ms to render and 2 to gzip), so a
    /// page made while its event is busy (`busy`: the copy before is less
    /// than [`BUSY`] old, as when 200 players report in a minute) is served
    /// first in gzip and gets its brotli copy from [`Page::finish`], off
    /// the request's path. A quiet page is made whole before it is served.
    pub fn build(html: String, revision: i32, boot: u32, busy: bool) -> Page {
        let identity = Bytes::from(html);
        let mut gz = flate2::write::GzEncoder::new(
            Vec::with_capacity(identity.len() / 4),
            flate2::Compression::best(),
        );
        gz.write_all(&identity).expect("writing to memory");
        let gzip = Bytes::from(gz.finish().expect("writing to memory"));
        let page = Page {
            revision,
            identity,
            gzip,
            brotli: OnceLock::new(),
            tag: format!("p{boot:x}.{revision}"),
            made: Instant::now(),
        };
        if !busy {
            page.finish();
        }
        page
    }

    /// Makes the brotli copy, if it is not made yet.
    pub fn finish(&self) {
        self.brotli.get_or_init(|| {
            let mut br = Vec::with_capacity(self.identity.len() / 5);
            {
                let mut w = brotli::CompressorWriter::new(&mut br, 64 * 1024, 9, 22);
                w.write_all(&self.identity).expect("writing to memory");
            }
            Bytes::from(br)
        });
    }

    /// The encoding `req` gets: the one it asks for, or gzip while the
    /// brotli copy is still being made (identity where gzip is refused).
    fn coding_for(&self, req: &HttpRequest) -> Coding {
        match Coding::negotiate(req).unwrap_or(Coding::Identity) {
            Coding::Brotli if self.brotli.get().is_none() => {
                if Coding::accepts_gzip(req) {
                    Coding::Gzip
                } else {
                    Coding::Identity
                }
            }
            other => other,
        }
    }

    /// The bytes of one representation (brotli once made).
    pub fn body(&self, coding: Coding) -> &Bytes {
        match coding {
            Coding::Brotli => self.brotli.get().unwrap_or(&self.gzip),
            Coding::Gzip => &self.gzip,
            Coding::Identity => &self.identity,
        }
    }

    /// The strong ETag of one representation.
    pub fn etag(&self, coding: Coding) -> String {
        format!("\"{}.{}\"", self.tag, coding.token())
    }

    /// Whether `req` revalidates a copy of this page it holds.
    fn held_by(&self, req: &HttpRequest) -> bool {
        none_match(req, self.etag(self.coding_for(req)).as_bytes())
    }

    /// The bytes kept, all encodings together.
    pub fn size(&self) -> usize {
        self.identity.len() + self.gzip.len() + self.brotli.get().map_or(0, Bytes::len)
    }

    /// The response for `req`: the representation it asks for, with its
    /// ETag; [`validate`] turns it into a 304 when the client has it.
    /// `how` goes out as `X-Kraal-Page` (built for this request, or
    /// served as built before).
    pub fn respond(&self, req: &HttpRequest, how: &'static str) -> HttpResponse {
        let coding = self.coding_for(req);
        let etag = self.etag(coding);
        // The copy the client holds is this one: 304 at once, without
        // building a response of the page first for [`validate`] to drop.
        let held = none_match(req, etag.as_bytes());
        let mut res = if held {
            HttpResponse::NotModified()
        } else {
            HttpResponse::Ok()
        };
        res.insert_header((header::ETAG, etag))
            .insert_header((header::CACHE_CONTROL, "no-cache"))
            .insert_header((header::VARY, "Accept-Encoding"));
        if held {
            return res.finish();
        }
        res.content_type("text/html; charset=utf-8")
            .insert_header(("X-Kraal-Page", how));
        // An encoded body says so, and the compression middleware leaves
        // it be; a plain one is what that middleware would choose too (it
        // negotiates the same way), so it stays plain.
        if coding != Coding::Identity {
            res.insert_header((header::CONTENT_ENCODING, coding.token()));
        }
        res.body(self.body(coding).clone())
    }
}

/// Rendered public pages, valid while their tournament's revision stands.
///
/// Each app process keeps its own. A change made through this process
/// clears it at once; a change made through another process (several
/// processes sharing one PostgreSQL) is noticed at the next revision check,
/// at most [`PageCache::RECHECK`] later, so that a busy page costs no
/// database round trip per request.
pub struct PageCache {
    pages: Mutex<HashMap<(TournamentId, String), Kept>>,
    /// One gate per page being built: when a change sends a thousand open
    /// pages back for a fresh copy at once, one request builds it and the
    /// others wait for that copy instead of each building their own.
    building: Mutex<Gates>,
    /// This process, in its pages' ETags.
    pub boot: u32,
    /// Each tournament as last loaded for a page, with the revision it was
    /// loaded at: after a change every open page of the event is built
    /// again (a thousand players' own pages, each its own page), and they
    /// share one load instead of each reading the whole event.
    events: Mutex<HashMap<TournamentId, Arc<crate::director::TournamentData>>>,
    /// Each tournament's standings at the revision they were computed at:
    /// every player's page shows its player's place, and a thousand pages
    /// built after a result share one ranking.
    standings: Mutex<HashMap<TournamentId, (i32, Ranked)>>,
}

/// An event's standings, shared by the pages built at one revision.
pub type Ranked = Arc<Vec<crate::standings::Standing>>;

impl Default for PageCache {
    fn default() -> PageCache {
        PageCache {
            pages: Mutex::default(),
            building: Mutex::default(),
            boot: rand::random(),
            events: Mutex::default(),
            standings: Mutex::default(),
        }
    }
}

/// A lock per page being built, by tournament and page.
type Gates = HashMap<(TournamentId, String), Arc<tokio::sync::Mutex<()>>>;

struct Kept {
    /// When the page was last found current; `None` after a change made
    /// through this process, so the next request checks.
    checked: Option<Instant>,
    page: Arc<Page>,
}

/// What the cache knows of a page.
pub enum Cached {
    /// Checked against the database within [`PageCache::RECHECK`].
    Fresh(Arc<Page>),
    /// Not checked lately: the page may be out of date.
    Stale(Arc<Page>),
    Missing,
}

impl PageCache {
    pub const RECHECK: Duration = Duration::from_millis(250);

    /// The most pages kept; past it the cache starts over.
    const MAX_PAGES: usize = 2000;

    /// The most events kept loaded: a whole event is megabytes where a
    /// page is kilobytes, and the events being followed at once are few.
    const MAX_EVENTS: usize = 32;

    fn pages(&self) -> std::sync::MutexGuard<'_, HashMap<(TournamentId, String), Kept>> {
        self.pages.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn lookup(&self, tid: TournamentId, page: &str) -> Cached {
        match self.pages().get(&(tid, page.to_string())) {
            Some(k) if k.checked.is_some_and(|c| c.elapsed() < Self::RECHECK) => {
                Cached::Fresh(k.page.clone())
            }
            Some(k) => Cached::Stale(k.page.clone()),
            None => Cached::Missing,
        }
    }

    /// The page if it was built from `revision` or a later one, marking it
    /// checked.
    pub fn confirm(&self, tid: TournamentId, page: &str, revision: i32) -> Option<Arc<Page>> {
        let mut pages = self.pages();
        let k = pages
            .get_mut(&(tid, page.to_string()))
            .filter(|k| k.page.revision >= revision)?;
        k.checked = Some(Instant::now());
        Some(k.page.clone())
    }

    pub fn put(&self, tid: TournamentId, page: &str, built: Arc<Page>) {
        let mut pages = self.pages();
        if pages.len() > Self::MAX_PAGES {
            pages.clear();
        }
        pages.insert(
            (tid, page.to_string()),
            Kept {
                checked: Some(Instant::now()),
                page: built,
            },
        );
    }

    /// Marks every page to be checked before it is served again (after a
    /// change made through this process). The copies stay, for readers
    /// who arrive while the new one is being built.
    pub fn outdate(&self) {
        for k in self.pages().values_mut() {
            k.checked = None;
        }
    }

    /// The tournament as loaded at `revision` or later, if it is kept.
    fn loaded(
        &self,
        tid: TournamentId,
        revision: i32,
    ) -> Option<Arc<crate::director::TournamentData>> {
        let events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        events
            .get(&tid)
            .filter(|d| d.tournament.revision >= revision)
            .cloned()
    }

    fn keep_loaded(&self, data: Arc<crate::director::TournamentData>) {
        let mut events = self.events.lock().unwrap_or_else(|e| e.into_inner());
        if events.len() >= Self::MAX_EVENTS {
            events.clear();
        }
        events.insert(data.tournament.id, data);
    }

    /// The standings of `data`, computed once per tournament revision.
    pub fn standings(&self, data: &crate::director::TournamentData) -> Ranked {
        let (tid, revision) = (data.tournament.id, data.tournament.revision);
        let kept = |map: &HashMap<_, (i32, Ranked)>| {
            map.get(&tid)
                .filter(|(r, _)| *r == revision)
                .map(|(_, s)| s.clone())
        };
        if let Some(s) = kept(&self.standings.lock().unwrap_or_else(|e| e.into_inner())) {
            return s;
        }
        // Computed outside the lock: two pages at once may both compute
        // them, and neither holds up the other events' pages.
        let computed = Arc::new(data.standings());
        let mut map = self.standings.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= Self::MAX_EVENTS {
            map.clear();
        }
        let newer = map.get(&tid).is_some_and(|(r, _)| *r > revision);
        if !newer {
            map.insert(tid, (revision, computed.clone()));
        }
        computed
    }

    /// The gate of one page: hold it while building the page.
    pub fn gate(&self, tid: TournamentId, page: &str) -> Arc<tokio::sync::Mutex<()>> {
        let mut map = self.building.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() > Self::MAX_PAGES {
            map.retain(|_, g| Arc::strong_count(g) > 1);
        }
        map.entry((tid, page.to_string())).or_default().clone()
    }
}

/// Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110
/// has it for this header: `W/` is ignored; `*` matches anything).
fn none_match(req: &HttpRequest, etag: &[u8]) -> bool {
    fn opaque(t: &[u8]) -> &[u8] {
        t.strip_prefix(b"W/").unwrap_or(t)
    }
    let mine = opaque(etag);
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .flat_map(|v| v.as_bytes().split(|&b| b == b','))
        .map(|t| t.trim_ascii())
        .any(|t| t == b"*" || opaque(t) == mine)
}

/// Around every request, inside the compression middleware: gives a GET's
/// 200 its ETag (a cached page brings its own; anything else public gets
/// one from its bytes) and answers a matching `If-None-Match` with 304 and
/// no body. Streams (the live events) and `no-store` responses pass by.
pub async fn validate(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let readable = matches!(*req.method(), Method::GET | Method::HEAD);
    let res = next.call(req).await?;
    if !readable || res.status() != StatusCode::OK {
        return Ok(res.map_into_boxed_body());
    }
    let headers = res.headers();
    let no_store = headers
        .get(header::CACHE_CONTROL)
        .is_some_and(|v| v.as_bytes().windows(8).any(|w| w == b"no-store"));
    let streaming = headers
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if no_store || streaming {
        return Ok(res.map_into_boxed_body());
    }
    if let Some(etag) = res.headers().get(header::ETAG).cloned() {
        if none_match(res.request(), etag.as_bytes()) {
            return Ok(not_modified(res, etag));
        }
        return Ok(res.map_into_boxed_body());
    }
    let (req, res) = res.into_parts();
    let (head, body) = res.into_parts();
    let body = match body.try_into_bytes() {
        Ok(bytes) => bytes,
        Err(body) => {
            let res = head.set_body(body.boxed());
            return Ok(ServiceResponse::new(req, res));
        }
    };
    let coding = Coding::negotiate(&req).unwrap_or(Coding::Identity);
    let digest = {
        use blake2::Digest;
        let d = blake2::Blake2s256::digest(&body);
        u64::from_be_bytes(d[..8].try_into().expect("a digest of 32 bytes"))
    };
    let etag = HeaderValue::from_str(&format!("\"h{digest:016x}.{}\"", coding.token()))
        .expect("hex and a token are a header value");
    let mut res = head.set_body(body);
    let h = res.headers_mut();
    h.insert(header::ETAG, etag.clone());
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    }
    let res = ServiceResponse::new(req, res);
    if none_match(res.request(), etag.as_bytes()) {
        return Ok(not_modified(res, etag));
    }
    Ok(res.map_into_boxed_body())
}

/// 304 for a response the client holds: the same validators and caching
/// headers, no body.
fn not_modified<B>(res: ServiceResponse<B>, etag: HeaderValue) -> ServiceResponse<BoxBody> {
    let (req, old) = res.into_parts();
    let mut res = HttpResponse::NotModified();
    res.insert_header((header::ETAG, etag));
    for name in [header::CACHE_CONTROL, header::VARY] {
        if let Some(v) = old.headers().get(&name) {
            res.insert_header((name, v.clone()));
        }
    }
    ServiceResponse::new(req, res.finish())
}

/// The tournament for building one of its pages: as kept, when it was
/// loaded at the `current` revision (or later), or loaded once for every
/// page being built (one load at a time per tournament).
pub async fn shared_load(
    state: &super::AppState,
    tid: TournamentId,
    current: i32,
) -> Result<Arc<crate::director::TournamentData>, super::AppError> {
    if let Some(data) = state.pages.loaded(tid, current) {
        return Ok(data);
    }
    let _loading = state.pages.gate(tid, "\0event").lock_owned().await;
    if let Some(data) = state.pages.loaded(tid, current) {
        return Ok(data);
    }
    let data = Arc::new(super::views::round::load_data(state, tid).await?);
    state.pages.keep_loaded(data.clone());
    Ok(data)
}

/// Serves a public page of a tournament: anonymous visitors get the copy
/// built for the tournament's current revision, in the encoding they ask
/// for; signed-in users (whose header differs) always get a fresh one.
/// `page` names the page in the cache (with whatever else its bytes
/// depend on). Rendering and compressing run on the blocking pool, so a
/// big page never holds up the requests beside it.
pub async fn public_page<F>(
    state: &super::AppState,
    req: &HttpRequest,
    signed_in: bool,
    tid: TournamentId,
    page: &str,
    build: F,
) -> Result<HttpResponse, super::AppError>
where
    F: FnOnce(crate::director::TournamentData) -> Result<String, super::AppError> + Send + 'static,
{
    use crate::director::tournaments;
    let building = if signed_in {
        None
    } else {
        let before = match state.pages.lookup(tid, page) {
            Cached::Fresh(p) => return Ok(p.respond(req, "cached")),
            Cached::Stale(p) => Some(p),
            Cached::Missing => None,
        };
        let revision = state.run(move |c| tournaments::revision(c, tid)).await?;
        if let Some(p) = state.pages.confirm(tid, page, revision) {
            return Ok(p.respond(req, "cached"));
        }
        let busy = before.as_ref().is_some_and(|b| b.made.elapsed() < BUSY);
        // The tournament moved on: one build at a time per page.
        let gate = state.pages.gate(tid, page);
        let held = match gate.clone().try_lock_owned() {
            Ok(held) => held,
            Err(_) => {
                // Someone is building it. A reader who holds no copy gets
                // the one before the change at once (it is a build's time
                // old, and its live stream says a newer revision exists);
                // a page revalidating that very copy, sent back by the
                // change, waits for the new one.
                if let Some(before) = before.filter(|b| !b.held_by(req)) {
                    return Ok(before.respond(req, "stale"));
                }
                gate.lock_owned().await
            }
        };
        // Whoever waited here finds the copy the build before it made.
        if let Some(p) = state.pages.confirm(tid, page, revision) {
            return Ok(p.respond(req, "cached"));
        }
        Some((held, revision, busy))
    };
    let busy = building.as_ref().is_some_and(|b| b.2);
    let data = match &building {
        Some((_, revision, _)) => Arc::unwrap_or_clone(shared_load(state, tid, *revision).await?),
        None => super::views::round::load_data(state, tid).await?,
    };
    let revision = data.tournament.revision;
    if signed_in {
        let html = actix_web::web::block(move || build(data)).await??;
        return Ok(HttpResponse::Ok()
            .content_type("text/html; charset=utf-8")
            .insert_header(("X-Kraal-Page", "built"))
            .body(html));
    }
    let boot = state.pages.boot;
    let key = page.to_string();
    let built = actix_web::web::block(move || {
        let started = Instant::now();
        let html = build(data)?;
        let rendered = started.elapsed();
        let built = Arc::new(Page::build(html, revision, boot, busy));
        // For operators (`KRAAL_LOG=kraal::page=info`): what a change costs.
        tracing::info!(
            target: "kraal::page",
            "built {key} of tournament {tid} at revision {revision}: rendered in {:.1} ms, \
             compressed in {:.1} ms, {} bytes kept in three encodings",
            rendered.as_secs_f64() * 1000.0,
            (started.elapsed() - rendered).as_secs_f64() * 1000.0,
            built.size()
        );
        Ok::<_, super::AppError>(built)
    })
    .await??;
    state.pages.put(tid, page, built.clone());
    let answer = built.respond(req, "built");
    if busy {
        // The brotli copy, made once this answer is on its way.
        actix_web::rt::task::spawn_blocking(move || built.finish());
    }
    Ok(answer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn asking(headers: &[(&str, &str)]) -> HttpRequest {
        headers
            .iter()
            .fold(TestRequest::default(), |r, h| r.insert_header(*h))
            .to_http_request()
    }

    #[test]
    fn a_change_leaves_the_old_copy_for_readers_who_hold_none() {
        let cache = PageCache::default();
        let old = Arc::new(Page::build(
            "<p>round 3</p>".repeat(100),
            7,
            cache.boot,
            false,
        ));
        cache.put(crate::ids::TournamentId(1), "standings", old.clone());
        assert!(matches!(
            cache.lookup(crate::ids::TournamentId(1), "standings"),
            Cached::Fresh(_)
        ));
        cache.outdate();
        let Cached::Stale(kept) = cache.lookup(crate::ids::TournamentId(1), "standings") else {
            panic!("the copy stays, marked to be checked");
        };
        assert_eq!(kept.revision, 7);
        assert!(
            cache
                .confirm(crate::ids::TournamentId(1), "standings", 8)
                .is_none(),
            "revision 8 needs a build"
        );
        // An open page revalidating exactly that copy waits for the new one;
        // a reader with nothing, or with another copy, does not.
        let gzip = ("Accept-Encoding", "gzip");
        let held = old.etag(Coding::Gzip);
        assert!(old.held_by(&asking(&[gzip, ("If-None-Match", held.as_str())])));
        assert!(!old.held_by(&asking(&[gzip])));
        let plain = old.etag(Coding::Identity);
        assert!(!old.held_by(&asking(&[gzip, ("If-None-Match", plain.as_str())])));
        // A copy built from a later revision than asked for is current.
        cache.put(
            crate::ids::TournamentId(1),
            "standings",
            Arc::new(Page::build("<p>round 4</p>".into(), 9, cache.boot, false)),
        );
        assert_eq!(
            cache
                .confirm(crate::ids::TournamentId(1), "standings", 8)
                .map(|p| p.revision),
            Some(9)
        );
    }

    #[test]
    fn every_encoding_holds_the_same_page() {
        let html = "<tr><td>1</td><td>Thabo Mokoena</td></tr>".repeat(500);
        let page = Page::build(html.clone(), 3, 0xbeef, false);
        let mut gz = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&page.gzip[..]), &mut gz)
            .unwrap();
        let mut br = String::new();
        std::io::Read::read_to_string(
            &mut brotli::Decompressor::new(&page.body(Coding::Brotli)[..], 4096),
            &mut br,
        )
        .unwrap();
        assert_eq!((gz.as_str(), br.as_str()), (html.as_str(), html.as_str()));
        assert_eq!(page.etag(Coding::Brotli), "\"pbeef.3.br\"");
    }

    #[test]
    fn a_page_made_while_its_event_is_busy_serves_gzip_until_its_brotli_is_made() {
        let html = "<tr><td>7</td><td>Naledi Khumalo</td></tr>".repeat(500);
        let page = Page::build(html, 4, 0xbeef, true);
        let chromium = asking(&[("Accept-Encoding", "gzip, deflate, br")]);
        let res = page.respond(&chromium, "built");
        assert_eq!(res.headers().get("content-encoding").unwrap(), "gzip");
        assert_eq!(res.headers().get("etag").unwrap(), "\"pbeef.4.gzip\"");
        // A client that takes brotli alone gets the plain page meanwhile.
        let br_only = asking(&[("Accept-Encoding", "br")]);
        assert!(page
            .respond(&br_only, "built")
            .headers()
            .get("content-encoding")
            .is_none());
        page.finish();
        let res = page.respond(&chromium, "cached");
        assert_eq!(res.headers().get("content-encoding").unwrap(), "br");
    }
}
