//! The venue display (`/t/{tid}/display`): one address for a TV or a
//! projector, no sign-in. It turns through the round's pairings, the
//! standings and the round clock; the clock counts down in the browser,
//! amber five minutes and red one minute before the end (OGR 8). The page
//! follows the event through the live stream and, should the network drop,
//! keeps trying until it is back (see `static/kraal.js`).

use actix_web::{web, HttpResponse};
use askama::Template;

use crate::clock::RoundClock;
use crate::director::TournamentData;
use crate::ids::{RoundNo, TournamentId};
use crate::standings::{show_points, Standing};
use crate::web::error::AppError;
use crate::web::layout::Ctx;
use crate::web::views::personal::{clock_words, iso, tone_name};
use crate::web::views::round::{pairing_views, PairingView};
use crate::web::AppState;

/// Rows a screen shows at once: legible across a hall.
const ROWS: usize = 12;

#[derive(Template)]
#[template(path = "display.html")]
pub struct DisplayPage {
    pub ctx: Ctx,
    pub tid: TournamentId,
    pub name: String,
    pub revision: i32,
    pub round: Option<RoundNo>,
    pub clock: Option<RoundClock>,
    /// The round's default limit, said while no clock is set.
    pub limit_minutes: i32,
    pub pairings: Vec<Vec<PairingView>>,
    pub standings: Vec<Vec<Standing>>,
    pub now: chrono::NaiveDateTime,
}

impl DisplayPage {
    fn of(ctx: Ctx, data: TournamentData) -> DisplayPage {
        let round = data.published().last().map(|r| (*r).clone());
        let pairings = round
            .as_ref()
            .map(|r| pairing_views(&data, r))
            .unwrap_or_default();
        let standings = if data.published().is_empty() {
            Vec::new()
        } else {
            data.standings()
        };
        let t = &data.tournament;
        DisplayPage {
            ctx,
            tid: t.id,
            name: t.name.clone(),
            revision: t.revision,
            round: round.as_ref().map(|r| r.number),
            clock: round.as_ref().and_then(|r| r.clock()),
            limit_minutes: t.clock_limit().minutes,
            pairings: pairings.chunks(ROWS).map(<[_]>::to_vec).collect(),
            standings: standings.chunks(ROWS).map(<[_]>::to_vec).collect(),
            now: chrono::Utc::now().naive_utc(),
        }
    }

    fn clock_text(&self, c: &RoundClock) -> String {
        clock_words(c, self.now).1
    }

    fn tone(&self, c: &RoundClock) -> &'static str {
        tone_name(c.tone(self.now))
    }

    fn iso(&self, at: impl std::borrow::Borrow<chrono::NaiveDateTime>) -> String {
        iso(*at.borrow())
    }

    fn points(&self, s: &Standing) -> String {
        show_points(s.score)
    }
}

/// `GET /t/{tid}/display`.
pub async fn show(
    ctx: Ctx,
    req: actix_web::HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<TournamentId>,
) -> Result<HttpResponse, AppError> {
    let signed_in = ctx.user.is_some();
    crate::web::cache::public_page(
        &state,
        &req,
        signed_in,
        path.into_inner(),
        "display",
        move |data| {
            DisplayPage::of(ctx, data)
                .render()
                .map_err(AppError::internal)
        },
    )
    .await
}
