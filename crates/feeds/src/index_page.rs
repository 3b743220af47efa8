//! `/`: a small index of the feeds, as JSON for programs and HTML for browsers.

use bytes::Bytes;
use datasets::{Feed, History};
use serde_json::{Value, json};
use serve::Representation;

use crate::{ALLOW, Route};

#[cfg(test)]
mod tests;

/// What the index shows, borrowed from the history being served.
pub(crate) struct Page<'a> {
    pub(crate) history: &'a History,
    /// The five feeds in [`Feed::ALL`] order.
    pub(crate) feeds: &'a [Representation; 5],
    pub(crate) name: &'a str,
    pub(crate) version: &'a str,
}

impl Page<'_> {
    /// The index as a JSON object.
    pub(crate) fn value(&self) -> Value {
        let feeds: Vec<Value> = Feed::ALL
            .iter()
            .zip(self.feeds)
            .map(|(&feed, representation)| {
                json!({
                    "path": Route::Feed(feed).path(),
                    "description": Route::Feed(feed).description(),
                    "bytes": representation.identity().len(),
                    "etag": representation.etag(),
                })
            })
            .collect();
        let routes: Vec<Value> = [Route::Track, Route::Health, Route::Index]
            .iter()
            .map(|route| json!({ "path": route.path(), "description": route.description() }))
            .collect();
        let days: Vec<String> =
            self.history.days().iter().map(|day| day.date.to_string()).collect();
        json!({
            "server": { "name": self.name, "version": self.version },
            "ts": self.history.live().ts_text(),
            "live_date": self.history.live_date().to_string(),
            "history_days": days,
            "methods": ALLOW,
            "feeds": feeds,
            "routes": routes,
        })
    }

    /// The index as JSON bytes, pretty-printed for people reading it with curl.
    pub(crate) fn json(&self) -> Bytes {
        let mut text = serde_json::to_string_pretty(&self.value()).unwrap_or_default();
        text.push('\n');
        Bytes::from(text)
    }

    /// The index as a small HTML page.
    pub(crate) fn html(&self) -> Bytes {
        let mut rows = String::new();
        for (&feed, representation) in Feed::ALL.iter().zip(self.feeds) {
            let route = Route::Feed(feed);
            rows.push_str(&format!(
                "<tr><td><a href=\"{path}\">{path}</a></td><td>{}</td><td>{}</td></tr>\n",
                escape(route.description()),
                representation.identity().len(),
                path = route.path(),
            ));
        }
        let live = self.history.live();
        let example = "/track?shape=oval&amp;carat=1.23&amp;color=G&amp;clarity=VS2&amp;ratio=1.4";
        let page = format!(
            "<!doctype html>\n<html lang=\"en\">\n<head><meta charset=\"utf-8\"><title>{name} {version}</title></head>\n<body>\n\
             <h1>Diamond pricing feeds</h1>\n\
             <p>Snapshot <code>{ts}</code>; {days} day(s) of history. Free, open, unauthenticated; \
             refreshed about once every 24 hours.</p>\n\
             <table>\n<tr><th>Feed</th><th>Contents</th><th>Bytes</th></tr>\n{rows}</table>\n\
             <p>Track one stone across the history: <a href=\"{example}\">{example}</a>. \
             Service status: <a href=\"/health\">/health</a>.</p>\n\
             <p>{name} {version}</p>\n</body>\n</html>\n",
            name = escape(self.name),
            version = escape(self.version),
            ts = live.ts_text(),
            days = self.history.days().len(),
        );
        Bytes::from(page)
    }
}

/// `text` with the HTML special characters escaped.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
