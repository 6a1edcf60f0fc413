//! Archived tournaments: withdrawn from public view. Their pages, cached
//! copies, API reads and live streams answer 404 to everyone but their
//! referees and the admins, and every public list leaves them out.
//!
//! The archived ids are few and read on every request that names a
//! tournament, so they are kept in memory and read again from the database
//! at most every [`Archived::RECHECK`] (another process may archive), and
//! at once after an archive through this process.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{AppError, AppState};
use crate::director::model::User;
use crate::ids::TournamentId;

#[derive(Default)]
pub struct Archived {
    kept: Mutex<Option<(Instant, Arc<Vec<TournamentId>>)>>,
}

impl Archived {
    pub const RECHECK: Duration = Duration::from_millis(250);

    fn kept(&self) -> std::sync::MutexGuard<'_, Option<(Instant, Arc<Vec<TournamentId>>)>> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The archived ids, read again when the kept ones are older than
    /// [`Self::RECHECK`].
    pub async fn ids(&self, state: &AppState) -> Result<Arc<Vec<TournamentId>>, AppError> {
        if let Some((at, ids)) = self.kept().as_ref() {
            if at.elapsed() < Self::RECHECK {
                return Ok(ids.clone());
            }
        }
        let ids = Arc::new(
            state
                .run(crate::director::tournaments::archived_ids)
                .await?,
        );
        *self.kept() = Some((Instant::now(), ids.clone()));
        Ok(ids)
    }

    /// Whether `tid` is archived as last read (no database read: for a
    /// live stream deciding whether to go on).
    pub fn known(&self, tid: TournamentId) -> bool {
        self.kept()
            .as_ref()
            .is_some_and(|(_, ids)| ids.contains(&tid))
    }

    /// After a write through this process: read again before the next use.
    pub fn outdate(&self) {
        *self.kept() = None;
    }
}

/// The tournament a path names: `/t/{tid}/...` and
/// `/api/v1/tournaments/{tid}/...`.
pub fn tournament_in_path(path: &str) -> Option<TournamentId> {
    let rest = path
        .strip_prefix("/t/")
        .or_else(|| path.strip_prefix("/api/v1/tournaments/"))?;
    let id = rest.split('/').next()?;
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}

/// Whether `user` may see archived tournament `tid`: an admin, or one of
/// its referees.
pub async fn may_see(
    state: &AppState,
    user: Option<&User>,
    tid: TournamentId,
) -> Result<bool, AppError> {
    match user {
        None => Ok(false),
        Some(u) if u.is_admin() => Ok(true),
        Some(u) => {
            let uid = u.id;
            state
                .run(move |c| crate::director::tournaments::is_referee(c, tid, uid))
                .await
        }
    }
}

/// Refuses a request naming an archived tournament to whoever may not see
/// it, as if the tournament did not exist.
pub async fn admit(state: &AppState, path: &str, user: Option<&User>) -> Result<(), AppError> {
    let Some(tid) = tournament_in_path(path) else {
        return Ok(());
    };
    if !state.archived.ids(state).await?.contains(&tid) {
        return Ok(());
    }
    if may_see(state, user, tid).await? {
        Ok(())
    } else {
        Err(AppError::not_found(crate::refusal::Thing::Tournament))
    }
}

/// The tournaments of a list `user` may see: archived ones only for their
/// referees and the admins.
pub async fn visible<T: Send + 'static>(
    state: &AppState,
    user: Option<&User>,
    list: Vec<T>,
    id_of: impl Fn(&T) -> (TournamentId, bool),
) -> Result<Vec<T>, AppError> {
    if !list.iter().any(|t| id_of(t).1) {
        return Ok(list);
    }
    let own: Vec<TournamentId> = match user {
        None => Vec::new(),
        Some(u) if u.is_admin() => return Ok(list),
        Some(u) => {
            let uid = u.id;
            state
                .run(move |c| crate::director::tournaments::refereed_by(c, uid))
                .await?
        }
    };
    Ok(list
        .into_iter()
        .filter(|t| {
            let (id, archived) = id_of(t);
            !archived || own.contains(&id)
        })
        .collect())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_path_names_its_tournament() {
        use super::tournament_in_path as t;
        use crate::ids::TournamentId;
        assert_eq!(t("/t/12/standings"), Some(TournamentId(12)));
        assert_eq!(t("/t/12"), Some(TournamentId(12)));
        assert_eq!(t("/api/v1/tournaments/7/rounds/1"), Some(TournamentId(7)));
        assert_eq!(t("/api/v1/tournaments"), None);
        assert_eq!(t("/t/new"), None);
        assert_eq!(t("/people/3"), None);
    }
}
