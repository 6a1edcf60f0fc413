//! What pulling the federation's list did, in words.

use std::fmt;

use crate::registry::Pulled;

fn people(n: usize) -> String {
    if n == 1 {
        "1 person".into()
    } else {
        format!("{n} people")
    }
}

impl fmt::Display for Pulled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        if !self.added.is_empty() {
            parts.push(format!(
                "added {}: {}",
                people(self.added.len()),
                self.added.join(", ")
            ));
        }
        if !self.refreshed.is_empty() {
            parts.push(format!(
                "refreshed the name, club or year of birth of {}: {}",
                people(self.refreshed.len()),
                self.refreshed.join(", ")
            ));
        }
        if !self.rated.is_empty() {
            parts.push(format!(
                "took the federation's rating for {}: {}",
                people(self.rated.len()),
                self.rated.join(", ")
            ));
        }
        if parts.is_empty() {
            write!(f, "The registry already matched the federation's list")?;
        } else {
            write!(f, "From the federation's list: {}", parts.join("; "))?;
        }
        write!(f, " ({} unchanged", people(self.unchanged))?;
        if self.without_id > 0 {
            write!(
                f,
                "; {} without a federation id left out",
                people(self.without_id)
            )?;
        }
        write!(f, ").")
    }
}
