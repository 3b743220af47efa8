//! What people and spreadsheets read: the HTML home page, the calculator's answer page,
//! the downloads (CSV and JSON), the OpenAPI description and the page's own stylesheet and
//! script.
//!
//! Everything but the calculator's answer is built once per history ([`Pages::new`]) and
//! served like the feeds (ETag, 304, gzip). HTML is written with `maud` templates
//! (checked at compile time, escaped by default) and sent with a strict
//! `Content-Security-Policy`: no inline script or style, nothing from another host.

mod calculator;
mod chart;
mod downloads;
mod format;
mod home;
mod layout;
mod openapi;

use bytes::Bytes;
use datasets::{Feed, History};
use hyper::{
    Response, StatusCode,
    header::{self, HeaderMap, HeaderValue},
};
use serve::{Body, Representation};

use self::layout::SAMPLE_NOTE;
use crate::{Route, document::Document};

#[cfg(test)]
mod tests;

/// The policy of every HTML answer: own stylesheet and script only, forms post here only.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

/// The log line saying that `history`'s live snapshot is the embedded reference snapshot
/// (made-up sample prices), or `None` when it is not. Servers print it at start-up.
pub fn sample_note(history: &History) -> Option<&'static str> {
    history.live().is_reference().then_some(SAMPLE_NOTE)
}

/// What the pages show besides the history.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Site<'a> {
    pub(crate) name: &'a str,
    pub(crate) version: &'a str,
    /// The five feeds in [`Feed::ALL`] order.
    pub(crate) feeds: &'a [Representation; 5],
}

/// Every page and document of one history, prebuilt.
#[derive(Debug)]
pub(crate) struct Pages {
    /// `/` as HTML.
    pub(crate) home: Representation,
    /// In [`Document::ALL`] order; `None` for the spread documents of a day without
    /// `matrix_stats.json`.
    documents: Vec<Option<Representation>>,
    /// True when the embedded reference snapshot is live.
    pub(crate) sample: bool,
}

impl Pages {
    /// Renders, hashes and compresses every page and document of `history`.
    pub(crate) fn new(history: &History, site: &Site<'_>) -> Pages {
        let live = history.live();
        let ts = live.ts().timestamp();
        let sample = live.is_reference();
        let frame =
            layout::Frame { name: site.name, version: site.version, ts: live.ts_text(), sample };
        let mut feeds: Vec<home::FeedLink> = Feed::ALL
            .iter()
            .zip(site.feeds)
            .map(|(&feed, representation)| home::FeedLink {
                route: Route::Feed(feed),
                bytes: representation.identity().len(),
            })
            .collect();
        if let Some(stats) = live.stats_file() {
            let route = Route::Document(Document::MatrixStatsJson);
            feeds.push(home::FeedLink { route, bytes: stats.len() });
        }
        let html = home::page(history, &frame, &feeds).into_string();
        let home = Representation::new(Bytes::from(html), "text/html; charset=utf-8", ts)
            .with_headers(|headers| {
                serve::cors_any_origin(headers);
                html_headers(headers);
                // `/` also varies with `Accept` (JSON or HTML).
                headers.insert(header::VARY, HeaderValue::from_static("Accept, Accept-Encoding"));
            });
        let prices = live.pricing();
        let documents = Document::ALL
            .iter()
            .map(|&document| {
                let body: Bytes = match document {
                    Document::HistoryJson => downloads::history_json(history).into(),
                    Document::HistoryCsv => downloads::history_csv(history).into(),
                    Document::MatrixCsv => downloads::matrix_csv(prices.round()).into(),
                    Document::MatrixCushionCsv => downloads::matrix_csv(prices.cushion()).into(),
                    Document::MatrixStatsJson => Bytes::copy_from_slice(live.stats_file()?),
                    Document::MatrixStatsCsv => downloads::stats_csv(live.spreads()?).into(),
                    Document::OpenApi => openapi::document(prices).into(),
                    Document::Stylesheet => Bytes::from_static(STYLESHEET.as_bytes()),
                    Document::Script => Bytes::from_static(SCRIPT.as_bytes()),
                };
                let representation = Representation::new(body, document.content_type(), ts);
                Some(representation.with_headers(serve::cors_any_origin))
            })
            .collect();
        Pages { home, documents, sample }
    }

    /// The representation of one document; `None` for a spread document of a day
    /// without `matrix_stats.json`.
    pub(crate) fn document(&self, document: Document) -> Option<&Representation> {
        self.documents[document as usize].as_ref()
    }
}

const STYLESHEET: &str = include_str!("page/site.css");
const SCRIPT: &str = include_str!("page/site.js");

/// Header fields of every HTML answer.
fn html_headers(headers: &mut HeaderMap) {
    headers
        .insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
}

/// `/quote?<query>`: the calculator's answer page for `history`, built per request: `200`
/// with the price, or `400` with the problems next to their fields.
/// A priced answer carries an `ETag`, is gzipped when asked and answers `304` when the
/// tag matches.
pub(crate) fn quote(
    history: &History,
    sample: bool,
    name: &str,
    version: &str,
    request: &serve::Request,
    cache_control: &HeaderValue,
) -> Response<Body> {
    let query = request.uri.query().unwrap_or("");
    let frame = layout::Frame { name, version, ts: history.live().ts_text(), sample };
    let answer = calculator::answer(history, &frame, query);
    if answer.ok {
        let body = Bytes::from(answer.markup.into_string());
        let ts = history.live().ts().timestamp();
        return Representation::for_request(body, "text/html; charset=utf-8", ts, request)
            .with_headers(html_headers)
            .respond(request, cache_control);
    }
    let mut response = Response::new(Body::new(Bytes::from(answer.markup.into_string())));
    *response.status_mut() = StatusCode::BAD_REQUEST;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    html_headers(headers);
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The content type of `/track?…&format=csv`.
pub(crate) const CSV_TYPE: &str = "text/csv; charset=utf-8; header=present";

pub(crate) use self::downloads::track_csv;
