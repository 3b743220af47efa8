//! [`Served`]: everything one snapshot history is served with, built once per history
//! and swapped as a whole.

use std::sync::Arc;

use bytes::Bytes;
use datasets::{Feed, History};
use hyper::header::{self, HeaderValue};
use serve::Representation;

use crate::{index_page, page};

#[cfg(test)]
mod tests;

/// The history being served plus its precomputed representations.
///
/// Built once when a history is loaded (never per request) and replaced atomically on
/// reload, so a request that holds one `Arc<Served>` sees a body, `ETag`,
/// `Last-Modified` and `ts` that all belong to the same snapshot.
#[derive(Debug)]
pub(crate) struct Served {
    /// Every snapshot held, oldest first; the last one is live.
    pub(crate) history: Arc<History>,
    /// The live snapshot's `ts`, in unix seconds.
    pub(crate) ts: i64,
    /// The live snapshot's `ts` as published.
    pub(crate) ts_text: String,
    /// The five feeds of the live snapshot, in [`Feed::ALL`] order.
    feeds: [Representation; 5],
    /// `/` as JSON.
    pub(crate) index_json: Representation,
    /// `/` as HTML, the downloads and the other prebuilt documents.
    pub(crate) pages: page::Pages,
}

impl Served {
    /// Hashes and compresses every representation of `history`'s live snapshot.
    pub(crate) fn new(history: Arc<History>, name: &str, version: &str) -> Served {
        let live = Arc::clone(history.live());
        let ts = live.ts().timestamp();
        let feeds = Feed::ALL.map(|feed| {
            Representation::new(
                Bytes::copy_from_slice(live.files().get(feed)),
                "application/json",
                ts,
            )
            .with_headers(serve::cors_any_origin)
        });
        let stats = live.stats_file().map(|bytes| {
            Representation::new(Bytes::copy_from_slice(bytes), "application/json", ts)
                .with_headers(serve::cors_any_origin)
        });
        let page = index_page::Page {
            history: &history,
            feeds: &feeds,
            stats: stats.as_ref(),
            name,
            version,
        };
        // `/` also varies with `Accept` (JSON or HTML).
        let index = |body, kind| {
            Representation::new(body, kind, ts).with_headers(|headers| {
                serve::cors_any_origin(headers);
                headers.insert(header::VARY, HeaderValue::from_static("Accept, Accept-Encoding"));
            })
        };
        let index_json = index(page.json(), "application/json");
        let pages = page::Pages::new(&history, &page::Site { name, version, feeds: &feeds });
        Served { ts_text: live.ts_text().to_owned(), history, ts, feeds, index_json, pages }
    }

    /// The representation of one feed.
    pub(crate) fn feed(&self, feed: Feed) -> &Representation {
        &self.feeds[feed as usize]
    }
}
