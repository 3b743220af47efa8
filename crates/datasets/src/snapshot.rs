//! A [`Snapshot`]: the five feeds of one day, parsed and validated together.

use std::fmt;

use chrono::{DateTime, SecondsFormat, Utc};
use pricing::{BasketEntry, Carat, PricingSet, Quote, QuoteError, QuoteRequest, Shape};

use crate::{
    depth::{self, Depth},
    error::{Error, Issue},
    index::{self, Index},
    matrix, ratio_models,
    reader::{Reader, item},
};

/// One of the five feeds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Feed {
    /// `matrix.json`: the round price matrix.
    Matrix,
    /// `matrix_cushion.json`: the cushion price matrix.
    MatrixCushion,
    /// `ratio_models.json`: L/W ratio models of the fancy shapes.
    RatioModels,
    /// `index.json`: the DCX index and its basket.
    Index,
    /// `depth.json`: listing counts.
    Depth,
}

impl Feed {
    /// All five, in publication order.
    pub const ALL: [Feed; 5] =
        [Feed::Matrix, Feed::MatrixCushion, Feed::RatioModels, Feed::Index, Feed::Depth];

    /// The file name, e.g. `matrix.json`.
    pub fn file_name(self) -> &'static str {
        match self {
            Feed::Matrix => "matrix.json",
            Feed::MatrixCushion => "matrix_cushion.json",
            Feed::RatioModels => "ratio_models.json",
            Feed::Index => "index.json",
            Feed::Depth => "depth.json",
        }
    }

    /// The feed published under `file_name`, if any.
    ///
    /// ```
    /// use datasets::Feed;
    ///
    /// assert_eq!(Feed::from_file_name("index.json"), Some(Feed::Index));
    /// assert_eq!(Feed::from_file_name("prices.json"), None);
    /// ```
    pub fn from_file_name(name: &str) -> Option<Feed> {
        Feed::ALL.into_iter().find(|feed| feed.file_name() == name)
    }

    /// Parses and validates `bytes` as this feed on its own: every problem
    /// [`Snapshot::parse`] reports inside this feed (syntax, types, grades, ranges, order,
    /// and the depth feed's own sums), with the same words and JSON pointers, but none of
    /// the checks across feeds (both matrices listing the same grades, a ratio model for
    /// every fancy shape, the index basket against the round matrix, one `ts` for all
    /// five). For a program that checks one file as it is written, and for fuzzing one
    /// parser at a time (`fuzz/`).
    ///
    /// ```
    /// use datasets::{Feed, reference};
    ///
    /// let good = reference::embedded();
    /// assert!(Feed::Depth.validate(good.get(Feed::Depth)).is_ok());
    ///
    /// let err = Feed::Index.validate(br#"{"ts": "yesterday"}"#).unwrap_err();
    /// assert_eq!(err.issues()[0].feed, "index.json");
    /// assert_eq!(err.issues()[0].pointer, "/ts");
    /// ```
    pub fn validate(self, bytes: &[u8]) -> Result<(), Error> {
        let mut issues = Vec::new();
        let parsed = match self {
            Feed::Matrix | Feed::MatrixCushion => {
                read(self, bytes, &mut issues, matrix::parse).is_some()
            }
            Feed::RatioModels => read(self, bytes, &mut issues, ratio_models::parse).is_some(),
            Feed::Index => read(self, bytes, &mut issues, index::parse).is_some(),
            Feed::Depth => read(self, bytes, &mut issues, depth::parse)
                .map(|depth| check_depth(&mut issues, &depth))
                .is_some(),
        };
        match parsed && issues.is_empty() {
            true => Ok(()),
            false => Err(Error::Invalid { issues }),
        }
    }
}

impl fmt::Display for Feed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.file_name())
    }
}

/// The raw bytes of the five feeds, exactly as published.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FeedFiles {
    files: [Vec<u8>; 5],
}

impl FeedFiles {
    /// Builds the set from a function giving each feed's bytes.
    pub fn from_fn(mut bytes: impl FnMut(Feed) -> Vec<u8>) -> FeedFiles {
        FeedFiles { files: Feed::ALL.map(&mut bytes) }
    }

    /// The bytes of one feed.
    pub fn get(&self, feed: Feed) -> &[u8] {
        &self.files[feed as usize]
    }
}

/// The five feeds of one day, validated as a whole.
///
/// Invariants: every feed parsed without issue; both matrices list the same grades in
/// the same order; every fancy shape has a ratio model; the index basket agrees with the
/// round matrix; depth counts agree with each other; all five feeds carry the same `ts`.
#[derive(Debug, Clone)]
pub struct Snapshot {
    ts: DateTime<Utc>,
    /// `ts` as published, formatted once.
    ts_text: String,
    pricing: PricingSet,
    index: Index,
    depth: Depth,
    files: FeedFiles,
    /// Whether `files` are the embedded reference snapshot's, decided once when parsed.
    reference: bool,
    /// `matrix_stats.json`, when the day has it (`matrix_stats.rs`).
    pub(crate) stats: Option<Box<crate::matrix_stats::Stats>>,
}

impl Snapshot {
    /// Parses and validates five feeds; the error lists every problem found.
    ///
    /// ```
    /// use datasets::{Feed, FeedFiles, Snapshot, reference};
    ///
    /// let good = reference::embedded();
    /// assert_eq!(Snapshot::parse(good.clone())?.ts_text(), "2026-11-20T00:00:00Z");
    ///
    /// // Break two feeds: both are reported, each issue with its feed and JSON pointer.
    /// let broken = FeedFiles::from_fn(|feed| match feed {
    ///     Feed::Depth => b"{".to_vec(),
    ///     Feed::Index => b"[]".to_vec(),
    ///     _ => good.get(feed).to_vec(),
    /// });
    /// let err = Snapshot::parse(broken).unwrap_err();
    /// let feeds: Vec<&str> = err.issues().iter().map(|issue| issue.feed).collect();
    /// assert_eq!(feeds, ["index.json", "depth.json"]);
    /// # Ok::<(), datasets::Error>(())
    /// ```
    pub fn parse(files: FeedFiles) -> Result<Snapshot, Error> {
        let mut issues = Vec::new();
        let round = read(Feed::Matrix, files.get(Feed::Matrix), &mut issues, matrix::parse);
        let cushion =
            read(Feed::MatrixCushion, files.get(Feed::MatrixCushion), &mut issues, matrix::parse);
        let ratios =
            read(Feed::RatioModels, files.get(Feed::RatioModels), &mut issues, ratio_models::parse);
        let index = read(Feed::Index, files.get(Feed::Index), &mut issues, index::parse);
        let depth = read(Feed::Depth, files.get(Feed::Depth), &mut issues, depth::parse);

        let mut cross = Reader::new("snapshot");
        if let (Some(round), Some(cushion)) = (&round, &cushion)
            && (round.matrix.colors() != cushion.matrix.colors()
                || round.matrix.clarities() != cushion.matrix.clarities())
        {
            cross.issue("", "matrix.json and matrix_cushion.json must list the same grades `r` and `c` in the same order");
        }
        if let Some(ratios) = &ratios {
            for &shape in Shape::FANCY {
                if !ratios.shapes.contains(&shape) {
                    cross.issue("", format!("ratio_models.json has no model for {shape}; every fancy shape needs one"));
                }
            }
        }
        if let (Some(round), Some(index)) = (&round, &index) {
            check_basket(&mut issues, &round.matrix, index);
        }
        if let Some(depth) = &depth {
            check_depth(&mut issues, depth);
        }
        let stamps = [
            round.as_ref().map(|m| (Feed::Matrix, m.ts)),
            cushion.as_ref().map(|m| (Feed::MatrixCushion, m.ts)),
            ratios.as_ref().map(|r| (Feed::RatioModels, r.ts)),
            index.as_ref().map(|i| (Feed::Index, i.ts)),
            depth.as_ref().map(|d| (Feed::Depth, d.ts)),
        ];
        let mut stamps = stamps.into_iter().flatten();
        if let Some((first_feed, first)) = stamps.next() {
            for (feed, ts) in stamps.filter(|&(_, ts)| ts != first) {
                cross.issue("", format!("{feed} has ts {} but {first_feed} has {}; all five feeds of a snapshot carry the same ts", format_ts(ts), format_ts(first)));
            }
        }
        issues.append(&mut cross.issues);
        match (round, cushion, ratios, index, depth) {
            (Some(round), Some(cushion), Some(ratios), Some(index), Some(depth))
                if issues.is_empty() =>
            {
                Ok(Snapshot {
                    ts: index.ts,
                    ts_text: format_ts(index.ts),
                    pricing: PricingSet::new(round.matrix, cushion.matrix, ratios.models),
                    index,
                    depth,
                    reference: crate::reference::is_embedded(&files),
                    files,
                    stats: None,
                })
            }
            _ => Err(Error::Invalid { issues }),
        }
    }

    /// The embedded reference snapshot (`fixtures/snapshot/`), compiled into the binary,
    /// with its `matrix_stats.json`.
    pub fn reference() -> Snapshot {
        Snapshot::parse(crate::reference::embedded())
            .and_then(|snapshot| snapshot.with_stats(crate::reference::embedded_stats().to_vec()))
            .expect("the embedded reference snapshot is valid (tested)")
    }

    /// Whether this is the embedded reference snapshot, byte for byte: made-up sample
    /// prices for trying the service out, not a market. Decided once, when the snapshot
    /// was parsed: asking costs nothing (`/health` asks on every request).
    pub fn is_reference(&self) -> bool {
        self.reference
    }

    /// The snapshot's publication time (the `ts` shared by all five feeds).
    pub fn ts(&self) -> DateTime<Utc> {
        self.ts
    }

    /// `ts` as published: ISO 8601 UTC with a `Z`, to the second.
    pub fn ts_text(&self) -> &str {
        &self.ts_text
    }

    /// Both matrices and the ratio models.
    pub fn pricing(&self) -> &PricingSet {
        &self.pricing
    }

    /// The index feed.
    pub fn index(&self) -> &Index {
        &self.index
    }

    /// The depth feed.
    pub fn depth(&self) -> &Depth {
        &self.depth
    }

    /// The five feeds' bytes as published.
    pub fn files(&self) -> &FeedFiles {
        &self.files
    }

    /// Prices one stone from this snapshot.
    #[inline(always)]
    pub fn quote(&self, request: &QuoteRequest) -> Result<Quote, QuoteError> {
        self.pricing.quote(request)
    }
}

/// Parses one feed's `bytes` with `parse`, moving its issues into `issues`.
fn read<T>(
    feed: Feed,
    bytes: &[u8],
    issues: &mut Vec<Issue>,
    parse: fn(&mut Reader, &[u8]) -> Option<T>,
) -> Option<T> {
    let mut reader = Reader::new(feed.file_name());
    let parsed = parse(&mut reader, bytes);
    issues.append(&mut reader.issues);
    parsed
}

/// Formats a timestamp the way every feed publishes it.
pub(crate) fn format_ts(ts: DateTime<Utc>) -> String {
    ts.to_rfc3339_opts(SecondsFormat::Secs, true)
}

/// The basket must agree with the round matrix: per-carat prices to the cent, totals,
/// logs of the totals, weights summing to 1 and the DCX itself.
fn check_basket(issues: &mut Vec<Issue>, matrix: &pricing::PriceMatrix, index: &Index) {
    let reader = &mut Reader::new(Feed::Index.file_name());
    let mut entries = Vec::with_capacity(index.specs.len());
    for (i, spec) in index.specs.iter().enumerate() {
        let at = item("/specs", i);
        let Ok(carat) = Carat::new(spec.carat) else {
            reader.issue(
                &format!("{at}/carat"),
                format!(
                    "basket carat must be between {} and {}, got {}",
                    pricing::CARAT_MIN,
                    pricing::CARAT_MAX,
                    spec.carat
                ),
            );
            continue;
        };
        let model = matrix.per_carat(carat, spec.color, spec.clarity);
        entries.push(BasketEntry { weight: spec.weight, per_carat: model });
        if (spec.per_carat - model).abs() > 0.005 + model * 1e-9 {
            reader.issue(
                &format!("{at}/per_carat"),
                format!(
                    "per_carat {} disagrees with matrix.json, which gives {:.2} for {} ct {} {}",
                    spec.per_carat, model, spec.carat, spec.color, spec.clarity
                ),
            );
        }
        let total = model * spec.carat;
        if (spec.price - total).abs() > 0.005 + total * 1e-9 {
            reader.issue(
                &format!("{at}/price"),
                format!("price {} is not per-carat x carat = {total:.2}", spec.price),
            );
        }
        if (spec.log - spec.price.ln()).abs() > 5e-6 {
            reader.issue(
                &format!("{at}/log"),
                format!("log {} is not ln(price) = {:.6}", spec.log, spec.price.ln()),
            );
        }
    }
    let weights: f64 = index.specs.iter().map(|spec| spec.weight).sum();
    if (weights - 1.0).abs() > 1e-6 {
        reader.issue("/specs", format!("basket weights sum to {weights:.6}, not 1"));
    }
    if entries.len() == index.specs.len()
        && let Ok(dcx) = pricing::weighted_geometric_mean(&entries)
        && (index.dcx - dcx).abs() > 0.005 + dcx * 1e-9
    {
        reader.issue(
            "/dcx",
            format!("dcx {} is not the weighted geometric mean of the basket, {dcx:.2}", index.dcx),
        );
    }
    issues.append(&mut reader.issues);
}

/// Depth counts must agree: per carat, the clarity and colour sums match; the colour x
/// clarity totals add up to all listings.
fn check_depth(issues: &mut Vec<Issue>, depth: &Depth) {
    let mut reader = Reader::new(Feed::Depth.file_name());
    let mut all = 0;
    for point in &depth.points {
        let by_color: u64 = point.color.iter().map(|(_, n)| n).sum();
        if by_color != point.total() {
            reader.issue(
                &crate::reader::child("/color", &point.key),
                format!(
                    "colour counts sum to {by_color} but clarity counts to {} at carat {}",
                    point.total(),
                    point.key
                ),
            );
        }
        all += point.total();
    }
    let pairs: u64 = depth.colclar.iter().map(|(_, _, n)| n).sum();
    if pairs != all {
        reader.issue(
            "/colclar",
            format!("colour x clarity counts sum to {pairs} but the carat counts to {all}"),
        );
    }
    issues.append(&mut reader.issues);
}

#[cfg(test)]
mod tests;
