//! [`Document`]: the prebuilt documents the feed server serves besides the feeds and `/`,
//! with their paths, descriptions and content types (a table both the routes and the
//! pages read).

/// A prebuilt document besides the feeds and `/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Document {
    /// `/index/history.json`: the DCX and its trends for every history day.
    HistoryJson,
    /// `/index/history.csv`: the same as CSV.
    HistoryCsv,
    /// `/matrix.csv`: the round matrix in dollars per carat.
    MatrixCsv,
    /// `/matrix_cushion.csv`: the cushion matrix in dollars per carat.
    MatrixCushionCsv,
    /// `/matrix_stats.json`: the day's `matrix_stats.json` as published (when it has one).
    MatrixStatsJson,
    /// `/matrix_stats.csv`: the same as CSV, one row per cell of both matrices.
    MatrixStatsCsv,
    /// `/openapi.json`: the OpenAPI 3.1 description of the feed server.
    OpenApi,
    /// `/site.css`: the pages' stylesheet.
    Stylesheet,
    /// `/site.js`: the pages' small enhancements.
    Script,
}

impl Document {
    /// Every document, in the order of `Pages`'s table (`crate::page`).
    pub const ALL: [Document; 9] = [
        Document::HistoryJson,
        Document::HistoryCsv,
        Document::MatrixCsv,
        Document::MatrixCushionCsv,
        Document::MatrixStatsJson,
        Document::MatrixStatsCsv,
        Document::OpenApi,
        Document::Stylesheet,
        Document::Script,
    ];

    /// The downloads offered to analysts.
    pub const DOWNLOADS: [Document; 5] = [
        Document::HistoryCsv,
        Document::HistoryJson,
        Document::MatrixCsv,
        Document::MatrixCushionCsv,
        Document::MatrixStatsCsv,
    ];

    /// The document served at `path`, if any.
    pub fn from_path(path: &str) -> Option<Document> {
        Document::ALL.into_iter().find(|document| document.path() == path)
    }

    /// The path the document is served at.
    pub fn path(self) -> &'static str {
        match self {
            Document::HistoryJson => "/index/history.json",
            Document::HistoryCsv => "/index/history.csv",
            Document::MatrixCsv => "/matrix.csv",
            Document::MatrixCushionCsv => "/matrix_cushion.csv",
            Document::MatrixStatsJson => "/matrix_stats.json",
            Document::MatrixStatsCsv => "/matrix_stats.csv",
            Document::OpenApi => "/openapi.json",
            Document::Stylesheet => "/site.css",
            Document::Script => "/site.js",
        }
    }

    /// One sentence on what the document holds.
    pub fn description(self) -> &'static str {
        match self {
            Document::HistoryJson => {
                "the DCX and its 24 h, 7 d and 30 d trends for every day held (JSON)"
            }
            Document::HistoryCsv => {
                "the DCX and its trends for every day held: date, dcx, trend_24h, trend_7d, trend_30d (CSV)"
            }
            Document::MatrixCsv => "round prices: band, color, clarity, usd_per_carat (CSV)",
            Document::MatrixCushionCsv => {
                "cushion prices: band, color, clarity, usd_per_carat (CSV)"
            }
            Document::MatrixStatsJson => {
                "the spread behind every price: per cell of both matrices, the screened asks, their 10th to 90th percentile per carat and how the price was made"
            }
            Document::MatrixStatsCsv => {
                "the spread of every cell: matrix, band, color, clarity, asks, basis, p10..p90 USD per carat (CSV)"
            }
            Document::OpenApi => {
                "OpenAPI 3.1 description of every route, parameter, response and error"
            }
            Document::Stylesheet => "the web page's stylesheet",
            Document::Script => "the web page's small enhancements (optional)",
        }
    }

    pub(crate) fn content_type(self) -> &'static str {
        match self {
            Document::HistoryJson | Document::OpenApi | Document::MatrixStatsJson => {
                "application/json"
            }
            Document::HistoryCsv
            | Document::MatrixCsv
            | Document::MatrixCushionCsv
            | Document::MatrixStatsCsv => "text/csv; charset=utf-8; header=present",
            Document::Stylesheet => "text/css; charset=utf-8",
            Document::Script => "text/javascript; charset=utf-8",
        }
    }
}
