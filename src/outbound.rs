//! Requests this server makes to others (pulling the federation's rating
//! list, publishing an event to a federation's server): one rule for where
//! they may go and how much of an answer is read, whatever asks.
//!
//! - **Where.** A host that resolves to this machine, a private network, a
//!   link-local or another non-public address is refused unless the
//!   server's admin allows it (`kraal serve --publish-allow-private`): a
//!   form field must not turn the server into a probe of its own network.
//!   The addresses are checked as the connection is made (the resolver
//!   below), so a name that resolves differently the second time changes
//!   nothing.
//! - **How long.** A few seconds to connect, and a deadline for the whole
//!   request (ureq's overall timeout, which its socket reads and writes
//!   follow): for a `PUT`, [`put_timeout`] (seconds for a small body, so
//!   that a silent server costs seconds, not minutes, and minutes for the
//!   largest event file, which a server takes that long to store); for a
//!   `GET`, [`GET_TIMEOUT`] (a rating list is a few MB: half a minute is
//!   plenty, and a silent federation server costs the referee no more).
//! - **How much.** At most what the answer can be for; more is refused
//!   without keeping it.
//! - **What is said.** A [`Failure`] of a few kinds, never the other
//!   server's own text.

use std::io::Read;
use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use crate::remote::Failure;

/// Whether requests may go to this machine and private networks.
#[derive(Debug, Clone, Copy, Default)]
pub struct Policy {
    pub allow_private: bool,
}

/// How long a connection may take to open.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long a server may stay silent in the middle of an answer.
pub const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// The longest a whole request may take.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(120);
/// The longest a `GET` (the federation's rating list) may take: a list of
/// 10,000 people is about 1 MB, read in seconds even on a slow link.
pub const GET_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a server may take to take a body and store it, per whole MB
/// sent (a federation's server on PostgreSQL stored a 49 MB event in about
/// two minutes: docs/performance.md).
pub const PUT_PER_MB: Duration = Duration::from_secs(4);
/// The longest a `PUT` may take, whatever its size.
pub const PUT_TIMEOUT_MAX: Duration = Duration::from_secs(300);

/// The deadline of a `PUT` of `body_len` bytes: the connection, the
/// answer's wait, and four seconds a whole MB for the body to be sent and
/// stored (15 s for an event under a MB, so that a silent server costs
/// seconds; under four minutes for the largest event file).
pub fn put_timeout(body_len: usize) -> Duration {
    let mb = u32::try_from(body_len / (1024 * 1024)).unwrap_or(u32::MAX);
    (CONNECT_TIMEOUT + READ_TIMEOUT + PUT_PER_MB.saturating_mul(mb)).min(PUT_TIMEOUT_MAX)
}

/// Whether `ip` is a public address: not this machine, not a private or
/// shared network, not link-local, not a documentation, multicast or
/// unspecified one.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || a == 0
                // Shared address space (carrier-grade NAT), 100.64/10.
                || (a == 100 && (64..128).contains(&b))
                // Benchmarking, 198.18/15; reserved, 240/4.
                || (a == 198 && (b == 18 || b == 19))
                || a >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                // Unique local fc00::/7, link-local fe80::/10,
                // documentation 2001:db8::/32.
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || (first == 0x2001 && v6.segments()[1] == 0x0db8))
        }
    }
}

/// The host of an address `check_address` took, for messages.
pub fn host(address: &str) -> String {
    let rest = address.split_once("://").map_or(address, |(_, rest)| rest);
    rest.split('/').next().unwrap_or(rest).to_string()
}

fn agent(policy: Policy) -> ureq::Agent {
    ureq::AgentBuilder::new()
        // A redirect is an answer like any other: a token or a request is
        // never sent on to another host.
        .redirects(0)
        .timeout_connect(CONNECT_TIMEOUT)
        // Each request's overall deadline (below, or `put_timeout`) takes
        // precedence over these two.
        .timeout_read(READ_TIMEOUT)
        .timeout_write(READ_TIMEOUT)
        .timeout(REQUEST_TIMEOUT)
        .resolver(move |netloc: &str| -> std::io::Result<Vec<SocketAddr>> {
            let all: Vec<SocketAddr> = netloc.to_socket_addrs()?.collect();
            let allowed: Vec<SocketAddr> = all
                .iter()
                .copied()
                .filter(|a| policy.allow_private || is_public(a.ip()))
                .collect();
            if allowed.is_empty() && !all.is_empty() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::PermissionDenied,
                    "a private address",
                ));
            }
            Ok(allowed)
        })
        .build()
}

/// `GET` of `url`, whose answer is at most `max_bytes`: its body.
pub fn get(policy: Policy, url: &str, max_bytes: usize) -> Result<Vec<u8>, Failure> {
    let host = host(url);
    let answer = agent(policy).get(url).timeout(GET_TIMEOUT).call();
    let response = match answer {
        Ok(r) if r.status() == 200 => r,
        Ok(r) => {
            return Err(Failure::Status {
                host,
                status: r.status(),
            })
        }
        Err(ureq::Error::Status(status, _)) => return Err(Failure::Status { host, status }),
        Err(ureq::Error::Transport(t)) => return Err(transport(host, &t)),
    };
    let mut body = Vec::new();
    let read = response
        .into_reader()
        .take(max_bytes as u64 + 1)
        .read_to_end(&mut body);
    match read {
        Ok(n) if n > max_bytes => Err(Failure::TooLarge {
            host,
            max_mb: max_bytes.div_ceil(1024 * 1024),
        }),
        Ok(_) => Ok(body),
        Err(_) => Err(Failure::NoAnswer { host }),
    }
}

/// The most of an answer to a `PUT` that is read: its status is what
/// counts, and a body, an error's above all, is never kept.
pub const MAX_PUT_ANSWER_BYTES: u64 = 4 * 1024;

/// `PUT` of the JSON `body` to `url` with `Authorization: Bearer token`,
/// answered 200. Of the answer, at most [`MAX_PUT_ANSWER_BYTES`] are read
/// (and dropped): a server that answers an endless body costs nothing.
pub fn put(policy: Policy, url: &str, token: &str, body: &[u8]) -> Result<(), Failure> {
    let host = host(url);
    let answer = agent(policy)
        .put(url)
        .timeout(put_timeout(body.len()))
        .set("Authorization", &format!("Bearer {token}"))
        .set("Content-Type", "application/json")
        .send_bytes(body);
    let (status, response) = match answer {
        Ok(r) => (r.status(), r),
        Err(ureq::Error::Status(status, r)) => (status, r),
        Err(ureq::Error::Transport(t)) => return Err(transport(host, &t)),
    };
    // A few bytes are read so that a short answer ends cleanly; the rest
    // is left unread and the connection closed with the response.
    let _ = std::io::copy(
        &mut response.into_reader().take(MAX_PUT_ANSWER_BYTES),
        &mut std::io::sink(),
    );
    if status == 200 {
        Ok(())
    } else {
        Err(Failure::Status { host, status })
    }
}

/// A transport error in one of two kinds: refused by the policy, or no
/// answer (whatever the cause, so that the wording is no port scanner).
fn transport(host: String, t: &ureq::Transport) -> Failure {
    let private = std::error::Error::source(t)
        .and_then(|e| e.downcast_ref::<std::io::Error>())
        .is_some_and(|e| e.kind() == std::io::ErrorKind::PermissionDenied)
        || t.message().is_some_and(|m| m.contains("a private address"));
    if private {
        Failure::Private { host }
    } else {
        Failure::NoAnswer { host }
    }
}

/// The longest rating list read: a registry of 100,000 people is about
/// 10 MB as CSV.
pub const MAX_LIST_BYTES: usize = 32 * 1024 * 1024;

/// Why the federation's rating list could not be pulled.
#[derive(Debug)]
pub enum ListFailure {
    /// The request came to nothing.
    Failed(Failure),
    /// The answer is not a rating list this server can read: its problems,
    /// by line and column.
    NotAList(Vec<crate::export::players::ImportError>),
}

impl std::fmt::Display for ListFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListFailure::Failed(failure) => write!(f, "{failure}"),
            ListFailure::NotAList(problems) => {
                write!(f, "the answer is not a rating list Kraal reads")?;
                for p in problems.iter().take(3) {
                    write!(f, "; line {}, column {}: {}", p.line, p.column, p.message)?;
                }
                if problems.len() > 3 {
                    write!(f, "; and {} more", problems.len() - 3)?;
                }
                write!(f, "; nothing was changed")
            }
        }
    }
}

/// The rating list of the federation's server at `base` (its
/// `/people.csv`, as `export::people` writes it), read as the registry's
/// CSV import reads a file.
pub fn rating_list(
    policy: Policy,
    base: &str,
    this_year: i32,
) -> Result<Vec<crate::registry::PersonFields>, ListFailure> {
    let url = format!("{}/people.csv", base.trim_end_matches('/'));
    let body = get(policy, &url, MAX_LIST_BYTES).map_err(ListFailure::Failed)?;
    let text = String::from_utf8_lossy(&body);
    // A federation whose registry is empty lists its header alone: nothing
    // to bring in, which is not a fault (a file to import is another
    // matter, and `read` refuses it).
    if text.lines().skip(1).all(|l| l.trim().is_empty()) && text.starts_with("id,") {
        return Ok(Vec::new());
    }
    crate::export::people::read(&text, this_year).map_err(ListFailure::NotAList)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_public_addresses_are_public() {
        for private in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.10",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:192.168.0.1",
        ] {
            assert!(!is_public(private.parse().unwrap()), "{private}");
        }
        for public in ["196.25.1.1", "8.8.8.8", "2c0f:f4c0::1"] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
    }

    #[test]
    fn a_put_waits_seconds_for_a_small_body_and_minutes_for_the_largest() {
        assert_eq!(put_timeout(300 * 1024), Duration::from_secs(15));
        assert_eq!(put_timeout(0), Duration::from_secs(15));
        assert_eq!(put_timeout(50 * 1024 * 1024), Duration::from_secs(215));
        assert_eq!(put_timeout(usize::MAX), PUT_TIMEOUT_MAX);
    }

    #[test]
    fn a_private_address_is_refused_before_anything_is_sent() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/people.csv", listener.local_addr().unwrap());
        let failure = get(Policy::default(), &url, 1024).unwrap_err();
        assert!(matches!(failure, Failure::Private { .. }), "{failure:?}");
    }
}
