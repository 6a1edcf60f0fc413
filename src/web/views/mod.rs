//! Read models the web layer shares: what a round, a team match or the
//! tournament page shows, built from a loaded tournament. Pages render
//! them, the API serialises its own types from them; no page imports
//! another page.

pub mod board;
pub mod personal;
pub mod publication;
pub mod round;
pub mod team;
pub mod tournament;

use crate::director::ratings::Book;
use crate::rating::Period;
use crate::web::error::AppError;
use crate::web::AppState;

/// The rating book as of today, for every page and API answer that shows
/// a rating (computed once per change of the games, then shared).
pub async fn rating_book(state: &AppState) -> Result<std::sync::Arc<Book>, AppError> {
    let ratings = state.ratings.clone();
    state
        .run(move |c| ratings.book(c, chrono::Utc::now().date_naive()))
        .await
}

/// This year, by the server's clock: the bound of a year of birth.
pub fn this_year() -> i32 {
    use chrono::Datelike;
    chrono::Utc::now().year()
}

/// The month asked for (`YYYY-MM`), the current one by default; a month
/// after the current one is refused, nothing being rated there yet.
pub fn period_of(asked: Option<&str>, until: Period) -> Result<Period, AppError> {
    crate::rating::Period::asked("period", asked, until).map_err(AppError::from)
}
