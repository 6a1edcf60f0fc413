//! A player's personal link (`/player/{key}`): their page, the results
//! they report, their word on the next round; and the referee's side:
//! the round's printable link cards, renewing or revoking a link, undoing
//! a player's word on the next round.
//!
//! The pairing-level record link (`/p/{pairing}/{key}`) keeps working
//! beside it: the personal page leads to it for sending records.

use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use askama::Template;
use askama_web::WebTemplate;
use serde::Deserialize;

use crate::clock::Tone;
use crate::director::model::Tournament;
use crate::director::personal::{self, NextRound};
use crate::field::Problem;
use crate::ids::{EntryId, GameId, RoundNo, TournamentId};
use crate::refusal::Kind;
use crate::results::GameResult;
use crate::tournament::{ByeKind, Confirmation};
use crate::web::auth::Referee;
use crate::web::error::AppError;
use crate::web::layout::{qr_svg, render, see_other, Ctx};
use crate::web::views::personal::{
    clock_words, iso, round_links, tone_name, OwnGame, OwnView, Standing,
};
use crate::web::AppState;

#[derive(Template, WebTemplate)]
#[template(path = "me.html")]
pub struct MePage {
    pub ctx: Ctx,
    pub key: String,
    pub me: OwnView,
    /// The pairing's record link, for sending records of the games.
    pub records: Option<String>,
    pub notice: Option<String>,
    pub problem: Option<String>,
    pub now: chrono::NaiveDateTime,
    /// The last day the phone keeps this page ([`personal::Own::kept_until`]).
    pub kept_until: chrono::NaiveDate,
}

impl MePage {
    fn action(&self, what: &str) -> String {
        format!("/player/{}/{what}", self.key)
    }

    /// The opponent of the player's current pairing (empty for a bye).
    fn opponent(&self) -> &str {
        self.me.current.as_ref().map_or("", |c| c.opponent.as_str())
    }

    /// The three results a player may report of `g`, as buttons: the stored
    /// spelling (from the starter's side) and the words from theirs.
    fn choices(&self, g: &OwnGame) -> Vec<(&'static str, String)> {
        let opponent = self.opponent();
        let (won, lost) = if g.you_start {
            (GameResult::StarterWon, GameResult::OtherWon)
        } else {
            (GameResult::OtherWon, GameResult::StarterWon)
        };
        vec![
            (won.as_str(), "I won".to_string()),
            (GameResult::Draw.as_str(), "Draw".to_string()),
            (lost.as_str(), format!("{opponent} won")),
        ]
    }

    /// A result from the starter's side, in the player's words.
    fn in_my_words(&self, g: &OwnGame, r: &GameResult) -> String {
        let opponent = self.opponent();
        match (r, g.you_start) {
            (GameResult::Draw, _) => "a draw".into(),
            (GameResult::StarterWon, true) | (GameResult::OtherWon, false) => "you won".into(),
            (GameResult::StarterWon, false) | (GameResult::OtherWon, true) => {
                format!("{opponent} won")
            }
            (other, _) => other.label().into(),
        }
    }

    fn stored(&self, g: &OwnGame) -> String {
        GameResult::parse(g.result)
            .map(|r| self.in_my_words(g, &r))
            .unwrap_or_default()
    }

    fn state_words(&self, g: &OwnGame) -> String {
        let opponent = self.opponent();
        let said = |r: &Option<GameResult>| r.map(|r| self.in_my_words(g, &r)).unwrap_or_default();
        match g.state {
            Standing::Open => "Not reported yet.".into(),
            Standing::Waiting if self.me.confirmation == Confirmation::Off && !g.result.is_empty() => {
                format!("Stored: {}. {opponent} may still say otherwise.", self.stored(g))
            }
            Standing::Waiting if g.yours.is_some() => {
                format!("You reported {}; waiting for {opponent}.", said(&g.yours))
            }
            Standing::Waiting => format!(
                "{opponent} reported {}. Report it too to confirm it.",
                said(&g.theirs)
            ),
            Standing::Disputed => format!(
                "Disputed: you reported {}, {opponent} reported {}. The referee decides; you may correct your report.",
                said(&g.yours),
                said(&g.theirs)
            ),
            Standing::AwaitingReferee => format!(
                "You both reported {}; the referee confirms it.",
                said(&g.yours)
            ),
            Standing::Agreed => format!("Stored: {} (reported by both players).", self.stored(g)),
            Standing::ByReferee => format!("Entered by the referee: {}.", self.stored(g)),
        }
    }

    fn clock(&self) -> Option<(Tone, String, String)> {
        let c = self.me.current.as_ref()?.clock?;
        let (tone, words) = clock_words(&c, self.now);
        Some((tone, words, iso(c.ends_at())))
    }

    fn word_name(&self) -> &'static str {
        self.me.next_word().map_or("play", NextRound::as_str)
    }

    fn chosen(&self, g: &OwnGame, value: &str) -> bool {
        g.yours.is_some_and(|r| r.as_str() == value)
    }

    fn state_name(&self, g: &OwnGame) -> &'static str {
        match g.state {
            Standing::Open => "open",
            Standing::Waiting => "waiting",
            Standing::Disputed => "disputed",
            Standing::AwaitingReferee => "awaiting_referee",
            Standing::Agreed => "agreed",
            Standing::ByReferee => "by_referee",
        }
    }

    fn tone(&self, t: &Tone) -> &'static str {
        tone_name(*t)
    }

    fn clock_start(&self) -> String {
        self.me
            .current
            .as_ref()
            .and_then(|c| c.clock)
            .map(|c| iso(c.starts_at))
            .unwrap_or_default()
    }

    fn bye_words(&self, b: &ByeKind) -> &'static str {
        match b {
            ByeKind::Half => "a half-point bye",
            ByeKind::Zero => "a zero-point absence",
            _ => "a bye",
        }
    }
}

async fn me_page(
    req: &HttpRequest,
    state: &AppState,
    key: String,
    notice: Option<String>,
    problem: Option<String>,
) -> Result<MePage, AppError> {
    let (own, standings) = crate::web::views::personal::open(state, &key).await?;
    let me = OwnView::of(&own, &standings);
    let now = chrono::Utc::now().naive_utc();
    let kept_until = own.kept_until(now.date());
    let pairing = own.data.rounds.iter().rev().find_map(|r| {
        own.data.pairings_of(r).into_iter().find(|p| {
            p.second_player_id.is_some()
                && (p.first_player_id == Some(own.player.id)
                    || p.second_player_id == Some(own.player.id))
        })
    });
    let records = match (pairing, me.current.as_ref()) {
        (Some(p), Some(c)) if c.table == p.table_no && !c.locked => {
            Some(crate::web::views::round::player_link(state, req, p.id).await?)
        }
        _ => None,
    };
    Ok(MePage {
        ctx: Ctx::with_csrf(req),
        key,
        me,
        records,
        notice,
        problem,
        now,
        kept_until,
    })
}

/// `GET /player/{key}`: the player's own page.
pub async fn page(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
    query: web::Query<std::collections::HashMap<String, String>>,
) -> Result<HttpResponse, AppError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, false)?;
    let notice = match query.get("done").map(String::as_str) {
        Some("report") => Some("Your report is in.".to_string()),
        Some("next") => Some("The referee has your word on the next round.".to_string()),
        _ => None,
    };
    let page = me_page(&req, &state, key, notice, None).await?;
    let mut res = render(&page, StatusCode::OK)?;
    // For the service worker, which drops its copy after that day.
    res.headers_mut().insert(
        actix_web::http::header::HeaderName::from_static(KEPT_UNTIL),
        actix_web::http::header::HeaderValue::from_str(&page.kept_until.to_string())
            .map_err(AppError::internal)?,
    );
    Ok(res)
}

/// The response header that tells the phone's service worker the last day
/// it keeps a player's page (`static/sw.js`).
pub const KEPT_UNTIL: &str = "kraal-kept-until";

/// `GET /player/{key}/manifest.webmanifest`: the manifest of a player's
/// page. A phone that installs Kraal from its player's page opens that
/// page from the home screen, not the list of tournaments, from which a
/// secret link cannot be found again.
pub async fn manifest(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
) -> Result<HttpResponse, AppError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, false)?;
    let (own, _) = crate::web::views::personal::open(&state, &key).await?;
    let mut manifest: serde_json::Value =
        serde_json::from_str(crate::web::pages::MANIFEST).map_err(AppError::internal)?;
    let start = format!("/player/{key}");
    manifest["id"] = start.clone().into();
    manifest["start_url"] = start.into();
    manifest["name"] = format!("Kraal · {} · {}", own.player.name, own.data.tournament.name).into();
    Ok(HttpResponse::Ok()
        .content_type("application/manifest+json")
        .body(manifest.to_string()))
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ReportForm {
    game: String,
    result: String,
}

/// Shows the player's page again with what went wrong, or sends them back
/// to it.
async fn answer(
    req: &HttpRequest,
    state: &AppState,
    key: String,
    done: Result<&'static str, AppError>,
    anchor: &str,
) -> Result<HttpResponse, AppError> {
    let e = match done {
        Ok(what) => return Ok(see_other(&format!("/player/{key}?done={what}#{anchor}"))),
        Err(e) => e,
    };
    let status = actix_web::ResponseError::status_code(&e);
    if e.is(Kind::Invalid) || e.is(Kind::Conflict) || e.is(Kind::Forbidden) {
        let (_, message) = e.said();
        render(
            &me_page(req, state, key, None, Some(message)).await?,
            status,
        )
    } else {
        Err(e)
    }
}

/// `POST /player/{key}/results`: the player reports one of their games.
pub async fn report(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
    form: web::Form<ReportForm>,
) -> Result<HttpResponse, AppError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, true)?;
    let game: GameId = form.game.trim().parse().unwrap_or(GameId(0));
    let done = match crate::reports::read(&form.result) {
        Err(p) => Err(AppError::from(crate::field::FieldError::new("result", p))),
        Ok(result) => {
            let k = key.clone();
            let done = state
                .run(move |c| personal::report(c, &k, game, result))
                .await;
            state.limits.personal_answered(&key, done).map(|_| "report")
        }
    };
    answer(&req, &state, key, done, &format!("g{game}")).await
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct NextForm {
    /// `play`, `zero` or `half`.
    word: String,
}

/// `POST /player/{key}/next-round`: the player's word on the next round.
pub async fn next_round(
    req: HttpRequest,
    state: web::Data<AppState>,
    key: web::Path<String>,
    form: web::Form<NextForm>,
) -> Result<HttpResponse, AppError> {
    let key = key.into_inner();
    state.limits.personal(&key, &req, true)?;
    let word = NextRound::named(&form.word).ok_or_else(|| {
        AppError::invalid(
            "word",
            Problem::Unknown {
                text: form.word.trim().to_string(),
                choices: &["play", "zero", "half"],
            },
        )
    });
    let done = match word {
        Ok(word) => {
            let k = key.clone();
            let done = state
                .run(move |c| personal::next_round_word(c, &k, word))
                .await;
            state.limits.personal_answered(&key, done).map(|_| "next")
        }
        Err(e) => Err(e),
    };
    answer(&req, &state, key, done, "next").await
}

/// One printable card: a player's name, seat and link.
pub struct Card {
    pub name: String,
    pub table: i32,
    pub url: Option<String>,
    pub qr: String,
}

#[derive(Template, WebTemplate)]
#[template(path = "player_cards.html")]
pub struct CardsPage {
    pub ctx: Ctx,
    pub t: Tournament,
    pub round: RoundNo,
    pub cards: Vec<Card>,
}

/// `GET /t/{tid}/rounds/{n}/links`: every player's card for round `n`,
/// with the QR code of their personal link (referees only: a link is its
/// player's permission).
pub async fn cards(
    r: Referee,
    ctx: Ctx,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, n) = path.into_inner();
    let data = crate::web::views::round::load_data(&state, tid).await?;
    let round = data.round(n, true)?;
    let mut links = round_links(&state, &req, &data, &round).await?;
    links.sort_by_key(|l| (l.table == 0, l.table, l.name.to_lowercase()));
    let cards = links
        .into_iter()
        .map(|l| Card {
            qr: l.url.as_deref().map(qr_svg).unwrap_or_default(),
            name: l.name,
            table: l.table,
            url: l.url,
        })
        .collect();
    render(
        &CardsPage {
            ctx,
            t: r.tournament,
            round: n,
            cards,
        },
        StatusCode::OK,
    )
}

/// `POST /t/{tid}/players/{pid}/link/renew`: a new link for the player.
pub async fn renew(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, AppError> {
    change_link(r, state, path, true).await
}

/// `POST /t/{tid}/players/{pid}/link/revoke`: the link stops working.
pub async fn revoke(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
) -> Result<HttpResponse, AppError> {
    change_link(r, state, path, false).await
}

/// Renews (`renew`) or revokes a player's link; back to their edit page.
async fn change_link(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId)>,
    renew: bool,
) -> Result<HttpResponse, AppError> {
    let (tid, pid) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| {
            if renew {
                crate::director::links::renew(w, tid, pid).map(|_| ())
            } else {
                crate::director::links::revoke(w, tid, pid)
            }
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}/players/{pid}/edit#link")))
}

/// `POST /t/{tid}/players/{pid}/byes/{n}/cancel`: the referee undoes a bye
/// of round `n` (one a player asked for through their link, or one
/// entered at the desk).
pub async fn cancel_bye(
    r: Referee,
    state: web::Data<AppState>,
    path: web::Path<(TournamentId, EntryId, RoundNo)>,
) -> Result<HttpResponse, AppError> {
    let (tid, pid, n) = path.into_inner();
    state
        .write(Some(r.user.id), move |w| {
            crate::director::rounds::cancel_bye(w, tid, pid, n, false)
        })
        .await?;
    Ok(see_other(&format!("/t/{tid}#byes")))
}
