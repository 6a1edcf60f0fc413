//! The tournament page and the forms on it as typed (a player, a
//! kept-apart pair): the forms that post from it render it again with
//! their errors, so it is shared by the pages that own those forms.

use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

use crate::director::model::Forbidden;
use crate::director::model::Tournament;
use crate::director::model::User;
use crate::director::model::{Player, Relation};
use crate::ids::{RoundNo, TournamentId};
use crate::tournament::System;
use crate::web::error::AppError;
use crate::web::layout::{Ctx, FormErrors};
use crate::web::AppState;

/// The "kept apart" form as typed; blank rounds mean from the first and to
/// the last.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct ForbiddenRaw {
    pub a: String,
    pub b: String,
    pub from_round: String,
    pub to_round: String,
}

/// The page's error key for a field of the "kept apart" form (the page
/// holds other forms with fields of the same names).
pub fn error_key(field: &str) -> String {
    format!("forbidden_{field}")
}

/// The fields of the page's forms in the order they stand on it (a waiver's
/// reason takes the focus by itself: only one waiver form errs at a time).
const FOCUS_ORDER: &[&str] = &[
    "bye_player",
    "bye_round",
    "person",
    "name",
    "club",
    "rating",
    "seed",
    "federation_id",
    "to",
    "token",
    "a",
    "b",
    "forbidden_a",
    "forbidden_b",
    "forbidden_from_round",
    "forbidden_to_round",
];

/// The page's error key for the waiver reason of one kept-apart pair.
pub fn waiver_key(id: i32) -> String {
    format!("waiver_{id}")
}

/// A player as typed in the form.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PlayerRaw {
    pub name: String,
    pub club: String,
    pub rating: String,
    pub seed: String,
    pub federation_id: String,
    /// A person of the registry, by number or federation id: the entry
    /// then takes the person's name, club, federation id and rating.
    pub person: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "tournament.html")]
pub struct TournamentPage {
    pub ctx: Ctx,
    pub t: Tournament,
    pub players: Vec<Player>,
    pub relations: Vec<Relation>,
    /// Kept-apart pairs; loaded for the tournament's referees only.
    pub forbidden: Vec<Forbidden>,
    /// The "kept apart" form as last typed.
    pub new_forbidden: ForbiddenRaw,
    pub referees: Vec<User>,
    /// Referees an admin could still assign.
    pub assignable: Vec<User>,
    pub can_edit: bool,
    pub new_player: PlayerRaw,
    pub errors: FormErrors,
    /// Rounds paired so far; drafts are shown to referees only.
    pub rounds: Vec<crate::director::model::Round>,
    /// Where each of those rounds stands.
    pub states: Vec<crate::director::RoundState>,
    pub next: crate::director::NextStep,
    /// How many rounds the event plays, or what decides them.
    pub rounds_label: String,
    /// Set when this is a copy a venue publishes here.
    pub published: Option<crate::director::model::Published>,
    /// Where this event is published to (referees only).
    pub publication: Option<crate::director::model::Publication>,
    /// Byes asked for rounds still to pair, with the player's name.
    pub byes: Vec<(crate::director::model::RequestedBye, String)>,
    /// The banner while the publication is failing (referees only).
    pub banner: Option<super::publication::Banner>,
}

impl TournamentPage {
    fn publication_target(&self) -> String {
        self.publication
            .as_ref()
            .map(|p| p.target.clone())
            .unwrap_or_default()
    }

    /// Entries whose games no other server can rate: they carry no
    /// federation id, so a federation cannot tell who they are.
    fn without_federation_id(&self) -> Vec<&str> {
        crate::director::registry::without_federation_id(&self.players)
    }

    /// On a published copy: entries that are nobody of this registry, so
    /// their games are not rated here.
    fn unrated_here(&self) -> Vec<&str> {
        self.players
            .iter()
            .filter(|p| p.person_id.is_none())
            .map(|p| p.name.as_str())
            .collect()
    }

    /// `current`, `pending`, `failing` or `off`.
    /// What the target or the network last said, without a closing full
    /// stop (the sentence around it has its own).
    fn publication_error(&self) -> String {
        self.publication
            .as_ref()
            .and_then(|p| p.last_error.as_deref())
            .unwrap_or("")
            .trim()
            .trim_end_matches(['.', ' '])
            .to_string()
    }
    fn publication_state(&self) -> &'static str {
        crate::director::publications::state_of(self.publication.as_ref(), self.t.revision)
    }
}

impl TournamentPage {
    fn next_round(&self) -> RoundNo {
        self.rounds
            .last()
            .map_or(RoundNo::FIRST, |r| r.number.next())
    }
    fn state_of(&self, n: &RoundNo) -> String {
        self.states
            .iter()
            .find(|s| s.number == *n)
            .map(|s| s.label())
            .unwrap_or_default()
    }
    /// The state of round `n` for the page's data attributes: its key and
    /// its tables complete of tables (`3/4`).
    fn state_data(&self, n: &RoundNo) -> (&'static str, String) {
        self.states
            .iter()
            .find(|s| s.number == *n)
            .map(|s| (s.key(), format!("{}/{}", s.done, s.tables)))
            .unwrap_or_default()
    }
    fn is_knockout(&self) -> bool {
        self.t.system == crate::tournament::System::Knockout
    }
    /// Why the waiver of kept-apart pair `id` was refused, if it was.
    fn waiver_error(&self, id: i32) -> Option<&str> {
        self.errors.get(&waiver_key(id))
    }
    /// Whether `field` is the first field in error in the page's order:
    /// the one that takes the focus when a form comes back with errors.
    fn focus(&self, field: &str) -> bool {
        FOCUS_ORDER
            .iter()
            .find(|f| self.errors.has(f))
            .is_some_and(|f| *f == field)
    }
    fn forbidden_error(&self, field: &str) -> Option<&str> {
        self.errors.get(&error_key(field))
    }
    fn active_count(&self) -> usize {
        self.players
            .iter()
            .filter(|p| p.withdrawn_from_round.is_none())
            .count()
    }
}

/// Loads everything the tournament page shows.
pub async fn load_page(
    state: &AppState,
    ctx: Ctx,
    id: TournamentId,
    new_player: PlayerRaw,
    errors: FormErrors,
) -> Result<TournamentPage, AppError> {
    let viewer = ctx.user.clone();
    let crate::director::tournaments::Page {
        t,
        players,
        relations,
        kept_apart,
        referees,
        all_users,
        assigned,
        data,
        published,
        publication,
    } = state
        .run(move |c| crate::director::tournaments::page(c, id, viewer.as_ref()))
        .await?;
    let assignable = all_users
        .into_iter()
        .filter(|u| !u.is_admin() && !referees.iter().any(|r| r.id == u.id))
        .collect();
    // A copy published from a venue changes there only.
    let can_edit = (ctx.is_admin() || assigned) && published.is_none();
    let rounds = data
        .rounds
        .iter()
        .filter(|r| r.is_published() || can_edit)
        .cloned()
        .collect();
    let paired = data.rounds.len() as i32;
    let names = data.player_names();
    let byes = data
        .byes
        .iter()
        .filter(|b| b.round.0 > paired)
        .map(|b| {
            let name = names.get(&b.player_id).map(|s| s.to_string());
            (b.clone(), name.unwrap_or_default())
        })
        .collect();
    let rounds_label = match (t.rounds, data.total_rounds()) {
        // Set (or fixed by the first pairing), and fitting the field.
        (Some(n), Ok(_)) => format!("{n} rounds"),
        (None, Ok(n)) if t.system == System::Knockout => format!(
            "rounds follow the field: {n} for the {} entered so far",
            data.field_size()
        ),
        (None, Ok(n)) => format!(
            "rounds follow the field: {n} ({} {}) for the {} entered so far",
            t.cycles,
            if t.cycles == 1 { "cycle" } else { "cycles" },
            data.field_size()
        ),
        (_, Err(e)) => e.to_string(),
    };
    let banner = publication
        .as_ref()
        .filter(|_| can_edit)
        .and_then(|p| super::publication::Banner::of(p, t.revision));
    Ok(TournamentPage {
        rounds_label,
        rounds,
        states: data.round_states(),
        next: data.next_step(),
        ctx,
        t,
        players,
        relations,
        forbidden: kept_apart,
        new_forbidden: Default::default(),
        referees,
        assignable,
        can_edit,
        new_player,
        errors,
        banner,
        published,
        publication,
        byes,
    })
}
