//! What a failed request to another server says to whoever asked for it.

use std::fmt;

use crate::remote::Failure;

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::NoAnswer { host } => write!(
                f,
                "{host} did not answer (the network may be down, or the server off); nothing was changed"
            ),
            Failure::Private { host } => write!(
                f,
                "{host} is on this machine or a private network, which this server's admin has not allowed (kraal serve --publish-allow-private)"
            ),
            Failure::Status { host, status } => {
                write!(f, "{host} answered {status}")?;
                match status {
                    300..=399 => write!(f, " (a redirect, which is not followed)"),
                    401 | 403 => write!(f, " (not allowed: check the token or the account)"),
                    404 => write!(f, " (no such page: check the address)"),
                    409 => write!(f, " (another account publishes this event there)"),
                    413 => write!(f, " (more than that server takes)"),
                    422 => write!(f, " (that server does not take this event file)"),
                    429 | 503 => write!(f, " (busy: Kraal tries again later)"),
                    500..=599 => write!(f, " (a trouble on that server)"),
                    _ => Ok(()),
                }
            }
            Failure::TooLarge { host, max_mb } => {
                write!(f, "{host} sent more than {max_mb} MB, which is more than it can be; nothing was kept")
            }
        }
    }
}

impl std::error::Error for Failure {}
