//! The banner the referees' pages (the tournament, a round, its results)
//! show while the event's publication is failing: where to, what the
//! target or the network said, when the sender tries next, and a "Send
//! now" button.

use chrono::NaiveDateTime;

use crate::director::model::Publication;
use crate::ids::TournamentId;
use crate::web::error::AppError;
use crate::web::AppState;

/// A failing publication, as the banner says it.
#[derive(Debug, Clone)]
pub struct Banner {
    pub tournament_id: TournamentId,
    pub target: String,
    /// What the target or the network said last, without a closing full
    /// stop (the banner's sentence has its own).
    pub error: String,
    /// When the sender tries next (UTC); `None`: at once.
    pub next_try: Option<NaiveDateTime>,
    /// The page the banner is on, where "Send now" returns.
    pub back: String,
}

impl Banner {
    /// The banner for `p` of a tournament at `revision`: only while its
    /// sends fail.
    pub fn of(p: &Publication, revision: i32) -> Option<Banner> {
        if crate::director::publications::state_of(Some(p), revision) != "failing" {
            return None;
        }
        let wait = crate::web::publisher::backoff(p.failures);
        let next_try = p
            .last_attempt_at
            .and_then(|at| chrono::Duration::from_std(wait).ok().map(|wait| at + wait));
        let error = p.last_error.as_deref().unwrap_or("").trim();
        Some(Banner {
            tournament_id: p.tournament_id,
            target: p.target.clone(),
            error: error.trim_end_matches(['.', ' ']).to_string(),
            next_try: next_try.filter(|t| *t > crate::director::now()),
            back: format!("/t/{}", p.tournament_id),
        })
    }

    /// The next try's time of day, 24-hour, UTC.
    pub fn next_try_hms(&self) -> String {
        self.next_try
            .map(|t| t.format("%H:%M:%S").to_string())
            .unwrap_or_default()
    }

    /// The next try as ISO 8601 UTC, for `data-next-try` and `<time>`.
    pub fn next_try_iso(&self) -> String {
        self.next_try
            .map(crate::web::views::personal::iso)
            .unwrap_or_default()
    }
}

/// The banner for tournament `tid` at `revision` on the page at `back`,
/// when `can_edit` (the public never sees it) and its publication is
/// failing.
pub async fn failing(
    state: &AppState,
    tid: TournamentId,
    revision: i32,
    can_edit: bool,
    back: String,
) -> Result<Option<Banner>, AppError> {
    if !can_edit {
        return Ok(None);
    }
    let p = state
        .run(move |c| crate::director::publications::find(c, tid))
        .await?;
    Ok(p.and_then(|p| Banner::of(&p, revision))
        .map(|b| Banner { back, ..b }))
}

/// Where "Send now" returns: the page it was pressed on when that is one
/// of tournament `tid`'s own pages, else the tournament page.
pub fn back_to(tid: TournamentId, back: &str) -> String {
    let own = format!("/t/{tid}");
    let safe = back
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_'));
    if safe && (back == own || back.starts_with(&format!("{own}/"))) && !back.contains("//") {
        back.to_string()
    } else {
        own
    }
}
