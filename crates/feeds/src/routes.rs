//! The closed list of routes: every entry point of the feed server is named here.

use datasets::Feed;

use crate::document::Document;

#[cfg(test)]
mod tests;

/// One route of the feed server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    /// `/`: the home page, listing the feeds (JSON, or HTML for browsers).
    Home,
    /// `/health` : status, live snapshot `ts`, number of history days, server version.
    Health,
    /// `/track` : one stone's quote in each snapshot of a window of days, oldest first.
    Track,
    /// `/<feed>.json` : a feed's bytes as published.
    Feed(Feed),
    /// `/quote` : the price calculator's answer page (HTML), built per query.
    Quote,
    /// `/check` : an asking price against the live quote of a stone (JSON), per query.
    Check,
    /// A prebuilt download, the API description or an asset of the pages.
    Document(Document),
}

impl Route {
    /// Every route, in the order the home page lists them.
    pub const ALL: [Route; 19] = [
        Route::Feed(Feed::Matrix),
        Route::Feed(Feed::MatrixCushion),
        Route::Feed(Feed::RatioModels),
        Route::Feed(Feed::Index),
        Route::Feed(Feed::Depth),
        Route::Document(Document::MatrixStatsJson),
        Route::Track,
        Route::Health,
        Route::Home,
        Route::Quote,
        Route::Check,
        Route::Document(Document::HistoryJson),
        Route::Document(Document::HistoryCsv),
        Route::Document(Document::MatrixCsv),
        Route::Document(Document::MatrixCushionCsv),
        Route::Document(Document::MatrixStatsCsv),
        Route::Document(Document::OpenApi),
        Route::Document(Document::Stylesheet),
        Route::Document(Document::Script),
    ];

    /// The route's place in [`Route::ALL`]: how per-route metrics count it.
    pub fn position(self) -> usize {
        Route::ALL.iter().position(|route| *route == self).unwrap_or(Route::ALL.len())
    }

    /// The route serving `path` (the query already stripped), if any. Matching is
    /// exact: no trailing slash, no case folding.
    pub fn from_path(path: &str) -> Option<Route> {
        match path {
            "/" => Some(Route::Home),
            "/health" => Some(Route::Health),
            "/track" => Some(Route::Track),
            "/quote" => Some(Route::Quote),
            "/check" => Some(Route::Check),
            _ => Document::from_path(path)
                .map(Route::Document)
                .or_else(|| path.strip_prefix('/').and_then(Feed::from_file_name).map(Route::Feed)),
        }
    }

    /// The path the route is served at.
    pub fn path(self) -> &'static str {
        match self {
            Route::Home => "/",
            Route::Health => "/health",
            Route::Track => "/track",
            Route::Quote => "/quote",
            Route::Check => "/check",
            Route::Document(document) => document.path(),
            Route::Feed(Feed::Matrix) => "/matrix.json",
            Route::Feed(Feed::MatrixCushion) => "/matrix_cushion.json",
            Route::Feed(Feed::RatioModels) => "/ratio_models.json",
            Route::Feed(Feed::Index) => "/index.json",
            Route::Feed(Feed::Depth) => "/depth.json",
        }
    }

    /// One sentence on what the route serves.
    pub fn description(self) -> &'static str {
        match self {
            Route::Home => "this index of the feeds (JSON; HTML for browsers)",
            Route::Health => "service status, live snapshot ts, history days and server version",
            Route::Track => {
                "one stone's quote in each snapshot of a window of days (the last 30 by default), oldest first: ?shape=&carat=&color=&clarity=[&ratio=][&days=N|all][&from=DATE]"
            }
            Route::Feed(Feed::Matrix) => {
                "round price matrix: log per-carat USD by carat band, color, clarity"
            }
            Route::Feed(Feed::MatrixCushion) => {
                "cushion price matrix, base of cushion-mapped shapes"
            }
            Route::Quote => {
                "the price calculator's answer page (HTML): ?shape=&carat=&color=&clarity=[&ratio=]"
            }
            Route::Check => {
                "an asking price against the live quote of a stone: benchmark, percentile, discount, verdict, range (JSON): ?shape=&carat=&color=&clarity=[&ratio=]&asking_price_usd="
            }
            Route::Document(document) => document.description(),
            Route::Feed(Feed::RatioModels) => "length-to-width ratio models of the fancy shapes",
            Route::Feed(Feed::Index) => "the DCX composite index, its trend and its basket",
            Route::Feed(Feed::Depth) => "listing counts by carat, color and clarity",
        }
    }
}
