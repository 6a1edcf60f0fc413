//! What the director hands to the web: the stored rows as the pages and the
//! API read them, the connection its use cases run on and their error.
//! Only types pass through here, never a function of `db`: every read and
//! every write is a function of the director (`tests/architecture.rs`
//! holds both rules), so a page and its API twin reach the data by the
//! same use case.

pub use crate::db::audit::Write;
pub use crate::db::auth::{Admission, ApiToken};
pub use crate::db::byes::RequestedBye;
pub use crate::db::event::{EventFile, Imported, MAX_FILE_BYTES};
pub use crate::db::forbidden::{Forbidden, NewForbidden};
pub use crate::db::health::EventEntries;
pub use crate::db::idempotency::Answer;
pub use crate::db::people::{Entry, LeftEntry, Merge, Person};
pub use crate::db::players::{Player, Relation};
pub use crate::db::publications::Publication;
pub use crate::db::published::{Published, Received, Sent};
pub use crate::db::reports::Report;
pub use crate::db::rounds::{Game, Pairing, Round};
pub use crate::db::scoresheets::Sheet;
pub use crate::db::seasons::Season;
pub use crate::db::teams::{Actor, NewTeam, Team};
pub use crate::db::tournaments::Tournament;
pub use crate::db::users::{Role, User};
pub use crate::db::{DbConnection, DbError, Pool};
