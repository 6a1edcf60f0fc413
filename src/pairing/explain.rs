//! The record each pairing carries, so a referee can say why it is the one
//! the rules give. Plain data, ready for a page or `kraal pair --json`.

use serde::{Deserialize, Serialize};

use super::{PlayerId, Points};

/// A float: a player paired outside their own score bracket (or given the
/// bye, which counts as a downfloat).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Float {
    pub player: PlayerId,
    pub direction: FloatDirection,
    /// The player's score before the round.
    pub from_score: Points,
    /// The score they were paired against (the bye counts as the bracket's).
    pub to_score: Points,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FloatDirection {
    Down,
    Up,
}

/// A preference or rule that did not hold for this pairing, and why no
/// pairing keeping it existed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bent {
    /// The rule, as a referee would name it.
    pub rule: String,
    /// Why it could not be kept.
    pub why: String,
}

/// Why a pairing is the one it is.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Explanation {
    /// The score bracket the pairing was made in (the higher player's
    /// score); `None` outside the Swiss system.
    pub bracket: Option<Points>,
    pub floats: Vec<Float>,
    pub bent: Vec<Bent>,
    /// Waivers the referee granted that this pairing relies on.
    pub waivers: Vec<String>,
    /// Anything else worth showing (e.g. "Berger table round 3, table 2").
    pub notes: Vec<String>,
}

/// Replaces every `player N` of an engine's sentence with the name `name`
/// gives for N (the engines speak of ids; people read names).
pub fn with_names(text: &str, name: &dyn Fn(PlayerId) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("player ") {
        let after = &rest[i + 7..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let named = after[..digits].parse().ok().and_then(name);
        out.push_str(&rest[..i]);
        match named {
            Some(n) => {
                out.push_str(&n);
                rest = &after[digits..];
            }
            None => {
                out.push_str("player ");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

impl Explanation {
    /// The same explanation with every player renumbered by `new_id` (a
    /// tournament moved to another database, where its players have new
    /// ids): the floats and every `player N` of the engines' sentences.
    pub fn renumber(&mut self, new_id: &dyn Fn(PlayerId) -> Option<PlayerId>) {
        let name = |id: PlayerId| new_id(id).map(|n| format!("player {n}"));
        for f in &mut self.floats {
            if let Some(n) = new_id(f.player) {
                f.player = n;
            }
        }
        for b in &mut self.bent {
            b.rule = with_names(&b.rule, &name);
            b.why = with_names(&b.why, &name);
        }
        for t in self.waivers.iter_mut().chain(&mut self.notes) {
            *t = with_names(t, &name);
        }
    }

    /// The explanation as sentences, players named by `name`, scores shown
    /// by `show`.
    pub fn lines(
        &self,
        name: &dyn Fn(PlayerId) -> Option<String>,
        show: fn(Points) -> String,
    ) -> Vec<String> {
        let who = |id: PlayerId| name(id).unwrap_or_else(|| format!("player {id}"));
        let mut out = Vec::new();
        if let Some(b) = self.bracket {
            out.push(format!("Score bracket {}", show(b)));
        }
        for f in &self.floats {
            let dir = match f.direction {
                FloatDirection::Down => "Floated down",
                FloatDirection::Up => "Floated up",
            };
            out.push(format!(
                "{dir}: {} from {} to {}",
                who(f.player),
                show(f.from_score),
                show(f.to_score)
            ));
        }
        for b in &self.bent {
            out.push(format!(
                "{} did not hold: {}",
                with_names(&b.rule, name),
                with_names(&b.why, name)
            ));
        }
        for w in &self.waivers {
            out.push(format!("Waiver: {}", with_names(w, name)));
        }
        for n in &self.notes {
            out.push(with_names(n, name));
        }
        out
    }
}

#[cfg(test)]
mod named_tests {
    use super::*;

    #[test]
    fn engine_sentences_name_the_players() {
        let name = |id: PlayerId| (id == 12).then(|| "Kagiso Molefe".to_string());
        assert_eq!(
            with_names("player 12 moved down; player 7 did not", &name),
            "Kagiso Molefe moved down; player 7 did not"
        );
        assert_eq!(with_names("no player here", &name), "no player here");
    }
}
