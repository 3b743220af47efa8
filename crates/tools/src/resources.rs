//! MCP resources: the five feeds of the live snapshot (`dcx://feeds/<file>`), two documents
//! embedded at compile time (`dcx://docs/methodology.md`, `dcx://docs/api.md`), and one
//! template for a day of the history (`dcx://history/{date}/{feed}`), the DCX of every day
//! of the history (`dcx://history/dcx.json`, what the chart view draws) and the MCP Apps
//! views ([`crate::apps`]). Feeds are read from the snapshot's own bytes
//! ([`datasets::Snapshot::files`]), byte for byte as published.

use std::sync::{Arc, LazyLock};

use chrono::NaiveDate;
use datasets::{Feed, History, Snapshot};
use jsonrpc::{Era, ErrorCode, ErrorObject};
use serde_json::{Value, json, value::RawValue};

use crate::memo::{LastBuilt, written};

#[cfg(test)]
mod tests;

/// Where the live feeds live: `dcx://feeds/matrix.json` and so on.
const FEEDS: &str = "dcx://feeds/";
/// Where the embedded documents live.
const DOCS: &str = "dcx://docs/";
/// The prefix of a history day's feed.
const HISTORY: &str = "dcx://history/";
/// The DCX of every published day, oldest first.
const SERIES: &str = "dcx://history/dcx.json";
/// The one resource template: a feed of a day of the history.
pub(crate) const HISTORY_TEMPLATE: &str = "dcx://history/{date}/{feed}";

/// The media type of the feeds.
const JSON: &str = "application/json";
/// The media type of the documents.
const MARKDOWN: &str = "text/markdown";

/// Cache lifetime of a live feed read: a minute, since a reload may replace the live
/// snapshot at any time (the default poll period). Documents and past days do not change
/// while the server runs and get the 24-hour lifetime of the lists.
pub(crate) const LIVE_TTL_MS: u64 = 60_000;

/// The 2025-era code for a resource that does not exist; 2026-07-28 uses -32602.
const LEGACY_NOT_FOUND: ErrorCode = ErrorCode(-32002);

/// One embedded document.
struct Doc {
    file: &'static str,
    title: &'static str,
    description: &'static str,
    text: &'static str,
}

const DOCUMENTS: [Doc; 2] = [
    Doc {
        file: "methodology.md",
        title: "Methodology",
        description: "How a day's listings become the five feeds: filtering, price \
                      selection, regression fill, smoothing, the index and depth.",
        text: include_str!("../../../docs/methodology.md"),
    },
    Doc {
        file: "api.md",
        title: "Feed server HTTP API",
        description: "The feed server's routes: the five feeds, /track, /quote, downloads.",
        text: include_str!("../../../docs/api.md"),
    },
];

fn feed_name(feed: Feed) -> &'static str {
    feed.file_name().trim_end_matches(".json")
}

/// A feed's title and description.
fn feed_words(feed: Feed) -> (&'static str, &'static str) {
    match feed {
        Feed::Matrix => (
            "Price matrix (round)",
            "USD per carat of round stones by carat band, colour and clarity.",
        ),
        Feed::MatrixCushion => (
            "Price matrix (cushion)",
            "USD per carat of cushion stones by carat band, colour and clarity.",
        ),
        Feed::RatioModels => ("Ratio models", "Length-to-width ratio models of the fancy shapes."),
        Feed::Index => ("DCX index", "The Diamond Composite Index, its trends and its basket."),
        Feed::Depth => ("Market depth", "Observed-offer counts by carat, colour and clarity."),
    }
}

/// Every resource's `resources/list` entry: the five live feeds, then the documents.
pub(crate) fn list() -> Value {
    let feeds = Feed::ALL.into_iter().map(|feed| {
        let (title, description) = feed_words(feed);
        json!({
            "uri": format!("{FEEDS}{}", feed.file_name()),
            "name": feed_name(feed),
            "title": title,
            "description": format!("{description} The live snapshot."),
            "mimeType": JSON,
        })
    });
    let docs = DOCUMENTS.iter().map(|doc| {
        json!({
            "uri": format!("{DOCS}{}", doc.file),
            "name": doc.file.trim_end_matches(".md"),
            "title": doc.title,
            "description": doc.description,
            // No `size`: the goldens of the listing would then move with every edit
            // of the documents, and `resources/read` answers at once anyway.
            "mimeType": MARKDOWN,
        })
    });
    let series = json!({
        "uri": SERIES,
        "name": "dcx_history",
        "title": "DCX by day",
        "description": "The DCX of every published day of the history, oldest first: \
                        {\"days\": [{\"date\", \"dcx\"}]}.",
        "mimeType": JSON,
    });
    Value::Array(feeds.chain(docs).chain([series]).chain(crate::apps::list()).collect())
}

/// The `resources/templates/list` entries.
pub(crate) fn templates() -> Value {
    json!([{
        "uriTemplate": HISTORY_TEMPLATE,
        "name": "history_day",
        "title": "A feed of a past day",
        "description": format!(
            "One feed of one published day of the history: date is YYYY-MM-DD, feed one of {} \
             (completion/complete lists both).",
            feed_files().join(", ")
        ),
        "mimeType": JSON,
    }])
}

/// The feed file names, in publication order.
pub(crate) fn feed_files() -> Vec<&'static str> {
    Feed::ALL.iter().map(|feed| feed.file_name()).collect()
}

/// A resource read: its `contents` written as JSON, and whether it is the live snapshot's
/// (short-lived).
pub(crate) struct Read {
    pub(crate) contents: Arc<RawValue>,
    pub(crate) live: bool,
}

/// The `contents` of a resource of one text item.
fn text_item(uri: &str, mime: &str, text: &str) -> Value {
    json!([{ "uri": uri, "mimeType": mime, "text": text }])
}

/// The `contents` of the documents and the views, by URI: compiled in, so written once
/// per process, when the first is read.
fn compiled(uri: &str) -> Option<Arc<RawValue>> {
    static WRITTEN: LazyLock<Vec<(String, Arc<RawValue>)>> = LazyLock::new(|| {
        let docs = DOCUMENTS.iter().map(|doc| {
            let uri = format!("{DOCS}{}", doc.file);
            let contents = written(&text_item(&uri, MARKDOWN, doc.text));
            (uri, contents)
        });
        let views = crate::apps::VIEWS
            .iter()
            .map(|view| (view.uri.to_owned(), written(&crate::apps::contents(view))));
        docs.chain(views).collect()
    });
    WRITTEN.iter().find(|(at, _)| at == uri).map(|(_, contents)| Arc::clone(contents))
}

/// The `contents` of a live feed, written once per snapshot and thread ([`LastBuilt`]).
fn live_feed(snapshot: &Arc<Snapshot>, feed: Feed) -> Arc<RawValue> {
    thread_local! {
        static LAST: [LastBuilt<Snapshot, Arc<RawValue>>; Feed::ALL.len()] =
            const { [const { LastBuilt::new() }; Feed::ALL.len()] };
    }
    LAST.with(|last| {
        // Feeds index their tables in `Feed::ALL`'s order, as `FeedFiles` does.
        last[feed as usize].get(snapshot, || {
            let uri = format!("{FEEDS}{}", feed.file_name());
            let text = String::from_utf8_lossy(snapshot.files().get(feed));
            written(&text_item(&uri, JSON, &text))
        })
    })
}

/// The `contents` of the DCX by day, written once per history and thread ([`LastBuilt`]).
fn series(history: &Arc<History>) -> Arc<RawValue> {
    thread_local! {
        static LAST: LastBuilt<History, Arc<RawValue>> = const { LastBuilt::new() };
    }
    LAST.with(|last| {
        last.get(history, || {
            let days: Vec<Value> = history
                .days()
                .iter()
                .map(|day| json!({ "date": day.date.to_string(), "dcx": day.dcx() }))
                .collect();
            written(&text_item(SERIES, JSON, &json!({ "days": days }).to_string()))
        })
    })
}

/// `resources/read` of `uri`; an unknown one is the era's resource-not-found error. Every
/// resource but a past day's feed is written once and copied per read: the documents
/// and views per process, the live feeds per snapshot, the series per history.
pub(crate) fn read(era: Era, uri: &str, history: &Arc<History>) -> Result<Read, ErrorObject> {
    if let Some(file) = uri.strip_prefix(FEEDS)
        && let Some(feed) = Feed::from_file_name(file)
    {
        return Ok(Read { contents: live_feed(history.live(), feed), live: true });
    }
    if let Some(contents) = compiled(uri) {
        return Ok(Read { contents, live: false });
    }
    if uri == SERIES {
        return Ok(Read { contents: series(history), live: true });
    }
    if let Some(rest) = uri.strip_prefix(HISTORY) {
        let (date, file) = rest.split_once('/').unwrap_or((rest, ""));
        let feed = Feed::from_file_name(file).ok_or_else(|| {
            not_found(
                era,
                uri,
                format!(
                    "unknown feed {} in {}; the feed is one of {}",
                    words::quoted(file),
                    words::quoted(uri),
                    feed_files().join(", ")
                ),
            )
        })?;
        let day = NaiveDate::parse_from_str(date, "%Y-%m-%d")
            .ok()
            .and_then(|date| history.days().iter().find(|day| day.date == date))
            .ok_or_else(|| not_found(era, uri, unknown_day(date, history)))?;
        // An older day is read from its folder again; the reason it cannot be is the
        // server's business (its message would name server paths).
        let snapshot = history.snapshot_of(day).map_err(|_| {
            not_found(era, uri, format!("the day {date} of the history can no longer be read"))
        })?;
        let text = String::from_utf8_lossy(snapshot.files().get(feed));
        return Ok(Read { contents: written(&text_item(uri, JSON, &text)), live: false });
    }
    Err(not_found(
        era,
        uri,
        format!(
            "unknown resource {}; this server offers {FEEDS}<feed> and {HISTORY_TEMPLATE} \
             (feed one of {}), {SERIES}, {DOCS}methodology.md, {DOCS}api.md, {} and {}",
            words::quoted(uri),
            feed_files().join(", "),
            crate::apps::CHART.uri,
            crate::apps::CALCULATOR.uri,
        ),
    ))
}

/// Which days there are, for a date that is not one of them.
fn unknown_day(date: &str, history: &History) -> String {
    let days = history.days();
    let (first, last) = (days[0].date, history.live_date());
    let held = match days.len() {
        1 => format!("the history holds one day, {first}"),
        n => format!("the history holds {n} days from {first} to {last}"),
    };
    format!(
        "no published day {} (a date is YYYY-MM-DD); {held} (completion/complete lists them)",
        words::quoted(date)
    )
}

/// The resource-not-found error of `era`: -32602 (2026-07-28) or -32002 (2025), with
/// `data: {"uri"}`.
fn not_found(era: Era, uri: &str, message: String) -> ErrorObject {
    let code = match era {
        Era::Modern => ErrorCode::INVALID_PARAMS,
        Era::Legacy(_) => LEGACY_NOT_FOUND,
    };
    ErrorObject { code, message, data: Some(json!({ "uri": words::clip(uri) })) }
}
