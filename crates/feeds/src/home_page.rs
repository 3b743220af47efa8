//! `/` for programs: the home page as JSON, listing the feeds and routes (browsers get
//! `crate::page`'s HTML home page).

use bytes::Bytes;
use datasets::{Feed, History};
use serde_json::{Value, json};
use serve::Representation;

use crate::{ALLOW, Route, document::Document};

#[cfg(test)]
mod tests;

/// What the home page shows, borrowed from the history being served.
pub(crate) struct Page<'a> {
    pub(crate) history: &'a History,
    /// The five feeds in [`Feed::ALL`] order.
    pub(crate) feeds: &'a [Representation; 5],
    /// `matrix_stats.json`, when the live day has it.
    pub(crate) stats: Option<&'a Representation>,
    pub(crate) name: &'a str,
    pub(crate) version: &'a str,
}

impl Page<'_> {
    /// The home page as JSON bytes, pretty-printed for people reading it with curl.
    pub(crate) fn json(&self) -> Bytes {
        let stats = self.stats.map(|stats| (Route::Document(Document::MatrixStatsJson), stats));
        let feeds: Vec<Value> = (Feed::ALL.into_iter().map(Route::Feed).zip(self.feeds))
            .chain(stats)
            .map(|(route, representation)| {
                json!({
                    "path": route.path(),
                    "description": route.description(),
                    "bytes": representation.identity().len(),
                    "etag": representation.etag(),
                })
            })
            .collect();
        let routes: Vec<Value> = Route::ALL
            .iter()
            .filter(|route| {
                !matches!(route, Route::Feed(_) | Route::Document(Document::MatrixStatsJson))
            })
            .map(|route| json!({ "path": route.path(), "description": route.description() }))
            .collect();
        let days: Vec<String> =
            self.history.days().iter().map(|day| day.date.to_string()).collect();
        let page = json!({
            "server": { "name": self.name, "version": self.version },
            "ts": self.history.live().ts_text(),
            "live_date": self.history.live_date().to_string(),
            "history_days": days,
            "methods": ALLOW,
            "feeds": feeds,
            "routes": routes,
        });
        let mut text = serde_json::to_string_pretty(&page).unwrap_or_default();
        text.push('\n');
        Bytes::from(text)
    }
}
