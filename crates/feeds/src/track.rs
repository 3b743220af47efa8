//! `/track`: one stone's quote in the snapshots of a window of days, oldest first: the
//! last [`DEFAULT_DAYS`](crate::stone::DEFAULT_DAYS) days unless `days=N`, `days=all` or
//! `from=YYYY-MM-DD` says otherwise. The default window is held parsed
//! ([`datasets::HELD_DAYS`]), so its cost does not grow with the history; an older day is
//! read from disk when a wider window asks for it (the route is under the rate limit).
//! The answer is [`Tracked`], written as JSON or, asked `format=csv`, as CSV.
//!
//! The target of the tool server's `tracking_url`
//! (`/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4`).

use bytes::Bytes;
use datasets::History;
use hyper::{Response, StatusCode, header::HeaderValue};
use serve::Body;

use crate::{
    page, query,
    stone::{self, FORMAT, Problem, Refusal},
    tracked::{self, Tracked},
};

#[cfg(test)]
mod tests;

/// Answers `/track?<query>` from `history`: `200` with the entry of every snapshot of
/// the window (with an `ETag`, gzip when asked, `304` when the tag matches), or `400`
/// naming every bad parameter.
pub(crate) fn respond(
    history: &History,
    request: &serve::Request,
    cache_control: &HeaderValue,
) -> Response<Body> {
    let query = request.uri.query().unwrap_or("");
    let ts = history.live().ts().timestamp();
    match stone::parse(query) {
        Ok(stone) => {
            let from = stone::from_date(query, history.live_date());
            let tracked: Tracked = tracked::track(history, &stone, from);
            let (body, kind) = match wants_csv(query) {
                true => (page::track_csv(&tracked), page::CSV_TYPE),
                false => (serde_json::to_string(&tracked).unwrap_or_default(), "application/json"),
            };
            serve::Representation::for_request(Bytes::from(body), kind, ts, request)
                .respond(request, cache_control)
        }
        Err(refusal) => {
            refused("/track?shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4", &refusal)
        }
    }
}

/// The `400` answer of `/track` and `/check`: every problem of `refusal`, and `example`,
/// a good query.
pub(crate) fn refused(example: &'static str, refusal: &Refusal) -> Response<Body> {
    let body = Refused {
        error: "invalid parameters",
        example,
        more_problems: (refusal.more > 0).then_some(refusal.more),
        problems: &refusal.problems,
    };
    let text = serde_json::to_string(&body).unwrap_or_default();
    serve::json_response(StatusCode::BAD_REQUEST, Bytes::from(text))
}

/// The `400` answer (its fields in this order, the order of their names).
#[derive(serde::Serialize)]
struct Refused<'a> {
    error: &'static str,
    example: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    more_problems: Option<usize>,
    problems: &'a [Problem],
}

/// Whether the query asks for CSV (`format=csv`, any case; checked by [`stone::parse`]).
fn wants_csv(query: &str) -> bool {
    query::pairs(query)
        .iter()
        .any(|(name, value)| name == FORMAT && value.eq_ignore_ascii_case("csv"))
}
