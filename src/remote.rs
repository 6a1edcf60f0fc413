//! Another server, as this one talks to it: where it may be and what can go
//! wrong, as values. The federation's address is checked here once for
//! every way it is given (the command line, the admin page), and a failed
//! request is one of a few kinds, worded in `wording::remote`: never the
//! other server's own text, which could say anything to whoever reads it.

use crate::field::{FieldError, Problem};

/// The longest address taken.
pub const MAX_ADDRESS: usize = 300;

/// A server's address: `http(s)://host[:port][/base]`, without a query, a
/// fragment or a user name, so that a path appended to it (`/people.csv`)
/// is the path asked for. Given back without its trailing `/`.
pub fn check_address(field: &'static str, text: &str) -> Result<String, FieldError> {
    let text = text.trim();
    let refused = || {
        FieldError::new(
            field,
            Problem::NotALink {
                text: text.chars().take(MAX_ADDRESS).collect(),
            },
        )
    };
    crate::roster::check_printable(field, text)?;
    if text.len() > MAX_ADDRESS {
        return Err(refused());
    }
    let rest = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"))
        .ok_or_else(refused)?;
    if rest.contains(['?', '#', '@', '\\', ' ']) {
        return Err(refused());
    }
    let (authority, _) = rest.split_once('/').unwrap_or((rest, ""));
    if host_of(authority).is_none() {
        return Err(refused());
    }
    Ok(text.trim_end_matches('/').to_string())
}

/// The host of `host[:port]` (an IPv6 address in brackets), when the port,
/// if any, is a number.
fn host_of(authority: &str) -> Option<&str> {
    let (host, port) = match authority.strip_prefix('[') {
        Some(v6) => {
            let (host, after) = v6.split_once(']')?;
            (host, after.strip_prefix(':'))
        }
        None => match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        },
    };
    let port_ok = port.is_none_or(|p| p.parse::<u16>().is_ok_and(|p| p > 0));
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '_'));
    (port_ok && host_ok).then_some(host)
}

/// Why a request to another server came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No connection, or no answer in time (the network is down, the
    /// server is off or silent): the same words whatever the cause, so
    /// that the answer says nothing of what listens where.
    NoAnswer { host: String },
    /// The address is on this machine or a private network, which this
    /// server's admin has not allowed.
    Private { host: String },
    /// The server answered with another status than the one wanted
    /// (a redirect included: it is not followed).
    Status { host: String, status: u16 },
    /// The answer was longer than anything the request can be for.
    TooLarge { host: String, max_mb: usize },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_a_base_that_a_path_can_follow() {
        assert_eq!(
            check_address("to", " https://ratings.morabaraba.org.za/ ").unwrap(),
            "https://ratings.morabaraba.org.za"
        );
        assert_eq!(
            check_address("to", "http://10.0.0.5:8080/kraal").unwrap(),
            "http://10.0.0.5:8080/kraal"
        );
        assert!(check_address("to", "http://[::1]:8080").is_ok());
        for bad in [
            "ftp://example.org",
            "example.org",
            "https://",
            "https://example.org/x?y=/api",
            "https://example.org/#frag",
            "https://user@example.org",
            "https://example.org:http",
            "https://example.org:0",
            "https://exa mple.org",
            "https://example.org\u{202E}",
        ] {
            let e = check_address("to", bad).unwrap_err();
            assert_eq!(e.field, "to", "{bad}");
        }
    }
}
