//! The reference snapshot: a deterministic generator for `fixtures/snapshot/` and the
//! embedded copy the servers fall back to.
//!
//! The price levels follow public retail figures for natural GIA-graded round stones
//! (see `docs/reference-snapshot.md`): per carat, G VS2 costs about $1,500 at 0.30 ct,
//! $5,900 at 1.00 ct and $33,000 at 6.00 ct; colour and clarity premiums widen with size.
//! A test checks that the committed files equal [`generate`]'s output byte for byte;
//! `UPDATE_EXPECT=1 cargo test -p dcx-datasets reference` rewrites them.

use pricing::{Carat, Clarity, Color, Shape};

use crate::{
    snapshot::{Feed, FeedFiles},
    wire::{
        self, BandFile, DepthFile, IndexFile, MatrixFile, Ordered, PointFile, RatioModelsFile,
        ShapeModel, SliderFile, SpecFile,
    },
};

/// Publication time of the reference snapshot.
pub const TS: &str = "2026-11-20T00:00:00Z";

/// Band keys with the per-carat price of a G VS2 round at each, USD.
const BANDS: [(&str, f64); 12] = [
    ("0.3", 1500.0),
    ("0.4", 1750.0),
    ("0.5", 2060.0),
    ("0.7", 2900.0),
    ("0.9", 3900.0),
    ("1.0", 5900.0),
    ("1.5", 8300.0),
    ("2.0", 12500.0),
    ("3.0", 20000.0),
    ("4.0", 26000.0),
    ("5.0", 30000.0),
    ("6.0", 33000.0),
];

/// Colour factors relative to G at 1 ct, D..M.
const COLOR_FACTORS: [f64; 10] = [1.38, 1.27, 1.16, 1.0, 0.88, 0.76, 0.65, 0.55, 0.47, 0.41];
/// Clarity factors relative to VS2 at 1 ct, FL..SI2.
const CLARITY_FACTORS: [f64; 8] = [1.55, 1.42, 1.30, 1.20, 1.09, 1.0, 0.86, 0.72];
/// Cushion modified brilliants trade below rounds.
const CUSHION_FACTOR: f64 = 0.78;

/// Listings per band, and the shares of each colour and clarity among them.
const LISTINGS: [u64; 12] = [420, 380, 610, 540, 330, 700, 380, 300, 120, 40, 15, 6];
const COLOR_SHARES: [f64; 10] = [0.04, 0.07, 0.11, 0.15, 0.15, 0.14, 0.12, 0.09, 0.07, 0.06];
const CLARITY_SHARES: [f64; 8] = [0.01, 0.03, 0.08, 0.12, 0.18, 0.22, 0.22, 0.14];

/// The DCX basket: carat, colour, clarity, weight (weights sum to 1).
pub const BASKET: [(f64, Color, Clarity, f64); 7] = [
    (0.5, Color::H, Clarity::Si1, 0.20),
    (0.7, Color::G, Clarity::Vs2, 0.19),
    (0.9, Color::G, Clarity::Vs2, 0.17),
    (1.0, Color::G, Clarity::Vs2, 0.18),
    (1.0, Color::F, Clarity::Vs1, 0.13),
    (1.5, Color::H, Clarity::Si1, 0.07),
    (2.0, Color::H, Clarity::Vs2, 0.06),
];

/// The reference snapshot compiled into the crate: the five files of
/// `reference-snapshot/` in this crate's folder (`fixtures/snapshot/` links there).
pub fn embedded() -> FeedFiles {
    FeedFiles::from_fn(|feed| embedded_feed(feed).to_vec())
}

/// One feed of [`embedded`], as compiled in.
fn embedded_feed(feed: Feed) -> &'static [u8] {
    match feed {
        Feed::Matrix => include_bytes!("../reference-snapshot/matrix.json"),
        Feed::MatrixCushion => include_bytes!("../reference-snapshot/matrix_cushion.json"),
        Feed::RatioModels => include_bytes!("../reference-snapshot/ratio_models.json"),
        Feed::Index => include_bytes!("../reference-snapshot/index.json"),
        Feed::Depth => include_bytes!("../reference-snapshot/depth.json"),
    }
}

/// Whether `files` are [`embedded`]'s, byte for byte (compared in place, nothing copied).
pub(crate) fn is_embedded(files: &FeedFiles) -> bool {
    Feed::ALL.iter().all(|&feed| files.get(feed) == embedded_feed(feed))
}

/// The reference snapshot's `matrix_stats.json`, compiled in beside [`embedded`].
pub fn embedded_stats() -> &'static [u8] {
    include_bytes!("../reference-snapshot/matrix_stats.json")
}

/// Generates the reference `matrix_stats.json`: no listings stand behind the reference
/// prices, so every cell is `modelled`, with no asks and the model range around its price
/// ([`crate::modelled_quantiles`] with the default spread, widened).
pub fn generate_stats() -> Vec<u8> {
    stats_file(&generate()).to_bytes()
}

/// The model-range `matrix_stats.json` of `files` (a valid snapshot), every cell
/// `modelled` with no asks.
pub fn stats_file(files: &FeedFiles) -> wire::MatrixStatsFile {
    let snapshot = crate::Snapshot::parse(files.clone()).expect("a valid snapshot");
    let family = |matrix: &pricing::PriceMatrix| {
        let bands = (0..matrix.bands().len()).map(|band| {
            let cells = matrix.colors().iter().flat_map(|&color| {
                matrix.clarities().iter().map(move |&clarity| {
                    let ln = matrix.ln_at_band(band, color, clarity);
                    wire::CellStatsFile::new(&pricing::CellSpread {
                        observations: 0,
                        quantiles: crate::modelled_quantiles(
                            ln,
                            crate::DEFAULT_SPREAD_LN,
                            crate::MODEL_WIDENING,
                        ),
                        basis: pricing::Basis::Modelled,
                    })
                })
            });
            (band_key(matrix.bands()[band]), cells.collect())
        });
        Ordered(bands.collect())
    };
    let pricing = snapshot.pricing();
    wire::MatrixStatsFile {
        ts: snapshot.ts_text().to_owned(),
        r: pricing.round().colors().iter().map(|c| c.as_str().to_owned()).collect(),
        c: pricing.round().clarities().iter().map(|c| c.as_str().to_owned()).collect(),
        s: [pricing.round().colors().len(), pricing.round().clarities().len()],
        percentiles: [10, 25, 50, 75, 90],
        round: family(pricing.round()),
        cushion: family(pricing.cushion()),
    }
}

/// A band carat as its key: the shortest decimal, with `.0` on whole carats (`1.0`).
fn band_key(carat: f64) -> String {
    let text = carat.to_string();
    if text.contains('.') { text } else { format!("{text}.0") }
}

/// Generates the five reference feeds.
pub fn generate() -> FeedFiles {
    generate_variant(TS, 1.0)
}

/// A valid variant of the reference snapshot published at `ts` with every price scaled by
/// `level`: for tests and demonstrations of histories (trends, tracking, reloads).
pub fn generate_variant(ts: &str, level: f64) -> FeedFiles {
    let round = matrix_file(ts, level);
    let cushion = matrix_file(ts, level * CUSHION_FACTOR);
    let round_bytes = wire::to_bytes(&round);
    let index = index_file(ts, &round_bytes);
    let mut files = [
        round_bytes,
        wire::to_bytes(&cushion),
        wire::to_bytes(&ratio_models(ts)),
        wire::to_bytes(&index),
        wire::to_bytes(&depth(ts)),
    ];
    FeedFiles::from_fn(|feed| std::mem::take(&mut files[feed as usize]))
}

/// Premium exponent: grade spreads are narrower on small stones and wider on large ones.
fn spread(carat: f64) -> f64 {
    0.6 + 0.5 * (carat / 0.3).ln() / 20f64.ln()
}

fn round6(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

fn matrix_file(ts: &str, scale: f64) -> MatrixFile {
    let l = BANDS
        .iter()
        .map(|&(key, base)| {
            let carat: f64 = key.parse().expect("band keys are numbers");
            let k = spread(carat);
            let values = Color::ALL
                .iter()
                .flat_map(|color| {
                    Clarity::ALL.iter().map(move |clarity| {
                        let factor = (COLOR_FACTORS[color.index()]
                            * CLARITY_FACTORS[clarity.index()])
                        .powf(k);
                        round6((base * scale * factor).ln())
                    })
                })
                .collect();
            (key.to_owned(), values)
        })
        .collect();
    MatrixFile {
        ts: ts.to_owned(),
        r: Color::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
        c: Clarity::ALL.iter().map(|c| c.as_str().to_owned()).collect(),
        s: [Color::ALL.len(), Clarity::ALL.len()],
        l: Ordered(l),
    }
}

fn index_file(ts: &str, round_bytes: &[u8]) -> IndexFile {
    let mut reader = crate::reader::Reader::new("matrix.json");
    let matrix =
        crate::matrix::parse(&mut reader, round_bytes).expect("generated matrix is valid").matrix;
    let mut entries = Vec::new();
    let specs = BASKET
        .iter()
        .map(|&(carat, color, clarity, weight)| {
            let per_carat = matrix.per_carat(
                Carat::new(carat).expect("basket carats are in range"),
                color,
                clarity,
            );
            entries.push(pricing::BasketEntry { weight, per_carat });
            let price = pricing::round_cents(per_carat * carat);
            SpecFile {
                carat,
                color: color.as_str().to_owned(),
                clarity: clarity.as_str().to_owned(),
                cut: "Excellent".to_owned(),
                price,
                per_carat: pricing::round_cents(per_carat),
                log: round6(price.ln()),
                weight,
            }
        })
        .collect();
    let dcx = pricing::weighted_geometric_mean(&entries).expect("basket is valid");
    IndexFile {
        dcx: pricing::round_cents(dcx),
        trend: 0.0,
        trend_7d: None,
        trend_30d: None,
        ts: ts.to_owned(),
        specs,
    }
}

/// A fancy shape's ratio model: the shape, its base matrix, its value mode, its slider
/// (min, centre, max) and the points `(ratio, value)` of its three carat bands.
type ShapeRow = (Shape, &'static str, &'static str, [f64; 3], [[(f64, f64); 3]; 3]);

const SHAPES: [ShapeRow; 7] = [
    (
        Shape::Cushion,
        "cushion",
        "delta_pct",
        [1.0, 1.08, 1.35],
        [
            [(1.0, -2.0), (1.08, 0.0), (1.2, -3.0)],
            [(1.0, -3.0), (1.1, 0.0), (1.25, -4.0)],
            [(1.0, -3.0), (1.1, 0.0), (1.25, -5.0)],
        ],
    ),
    (
        Shape::Radiant,
        "cushion",
        "delta_pct",
        [1.0, 1.25, 1.5],
        [
            [(1.0, -4.0), (1.2, 0.0), (1.35, 1.0)],
            [(1.0, -5.0), (1.25, 0.0), (1.4, 2.0)],
            [(1.0, -6.0), (1.25, 0.0), (1.4, 2.0)],
        ],
    ),
    (
        Shape::Emerald,
        "round",
        "pct_of_base",
        [1.2, 1.4, 1.7],
        [
            [(1.25, 62.0), (1.4, 66.0), (1.55, 63.0)],
            [(1.25, 64.0), (1.42, 68.0), (1.6, 64.0)],
            [(1.25, 66.0), (1.45, 70.0), (1.6, 66.0)],
        ],
    ),
    (
        Shape::Oval,
        "round",
        "delta_pct",
        [1.25, 1.4, 1.7],
        [
            [(1.3, -22.0), (1.4, -18.0), (1.5, -20.0)],
            [(1.3, -20.0), (1.4, -15.0), (1.55, -18.0)],
            [(1.3, -18.0), (1.42, -12.0), (1.55, -15.0)],
        ],
    ),
    (
        Shape::Pear,
        "round",
        "delta_pct",
        [1.4, 1.6, 1.85],
        [
            [(1.45, -26.0), (1.6, -22.0), (1.75, -25.0)],
            [(1.45, -24.0), (1.6, -20.0), (1.75, -23.0)],
            [(1.45, -22.0), (1.62, -18.0), (1.75, -21.0)],
        ],
    ),
    (
        Shape::Marquise,
        "round",
        "pct_of_base",
        [1.75, 2.0, 2.3],
        [
            [(1.8, 66.0), (1.95, 70.0), (2.15, 67.0)],
            [(1.8, 67.0), (2.0, 72.0), (2.2, 68.0)],
            [(1.8, 68.0), (2.0, 73.0), (2.2, 69.0)],
        ],
    ),
    (
        Shape::Heart,
        "round",
        "delta_pct",
        [0.9, 1.0, 1.15],
        [
            [(0.92, -28.0), (1.0, -25.0), (1.08, -27.0)],
            [(0.92, -26.0), (1.0, -22.0), (1.08, -25.0)],
            [(0.92, -24.0), (1.0, -20.0), (1.08, -23.0)],
        ],
    ),
];

/// The carat bands of every model: they touch at 1.0 and 2.0 ct (the upper band owns the
/// shared carat).
const MODEL_BANDS: [(f64, Option<f64>); 3] = [(0.3, Some(1.0)), (1.0, Some(2.0)), (2.0, None)];

fn ratio_models(ts: &str) -> RatioModelsFile {
    let shapes = SHAPES.iter().map(|&(shape, source, mode, [min, center, max], points)| {
        let bands = MODEL_BANDS.iter().zip(points).map(|(&(min_carat, max_carat), points)| {
            let points = points.map(|(ratio, value)| PointFile { ratio, value }).to_vec();
            BandFile { min_carat, max_carat, points }
        });
        let model = ShapeModel {
            data_source: source.to_owned(),
            value_mode: mode.to_owned(),
            slider: SliderFile { min, center, max },
            bands: bands.collect(),
            source: None,
        };
        (shape.as_str().to_owned(), model)
    });
    RatioModelsFile {
        ts: ts.to_owned(),
        version: "reference-1".to_owned(),
        shapes: Ordered(shapes.collect()),
    }
}

fn depth(ts: &str) -> DepthFile {
    let counts: Vec<[[u64; 8]; 10]> = (0..BANDS.len())
        .map(|band| {
            std::array::from_fn(|color| {
                std::array::from_fn(|clarity| {
                    (LISTINGS[band] as f64 * COLOR_SHARES[color] * CLARITY_SHARES[clarity]).round()
                        as u64
                })
            })
        })
        .collect();
    let keys: Vec<&str> = BANDS.iter().map(|(key, _)| *key).collect();
    DepthFile::from_counts(&keys, &counts, ts)
}

#[cfg(test)]
mod tests;
