//! The published JSON shapes of the five feeds, field names exactly as
//! `docs/decisions.md` and `docs/data-formats.md` give them. Used to write feeds; reading goes through the
//! validating parsers, which report every problem with a JSON pointer.

use serde::{Serialize, Serializer, ser::SerializeMap};

/// A JSON object whose keys keep the order they were pushed in.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Ordered<V>(pub Vec<(String, V)>);

impl<V: Serialize> Serialize for Ordered<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// `matrix.json` and `matrix_cushion.json`.
#[derive(Debug, Clone, Serialize)]
pub struct MatrixFile {
    /// Publication time, ISO 8601 UTC.
    pub ts: String,
    /// Colour grades, the rows.
    pub r: Vec<String>,
    /// Clarity grades, the columns.
    pub c: Vec<String>,
    /// `[len(r), len(c)]`.
    pub s: [usize; 2],
    /// Carat band key -> ln per-carat USD, row-major (colour x clarity).
    pub l: Ordered<Vec<f64>>,
}

/// `ratio_models.json`.
#[derive(Debug, Clone, Serialize)]
pub struct RatioModelsFile {
    /// Publication time.
    pub ts: String,
    /// Model version label.
    pub version: String,
    /// Shape key -> model.
    pub shapes: Ordered<ShapeModel>,
}

/// One shape's ratio model.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShapeModel {
    /// `cushion` or `round`: the base matrix family.
    pub data_source: String,
    /// `delta_pct` or another mode (percent of base).
    pub value_mode: String,
    /// Supported ratio range.
    pub slider: SliderFile,
    /// Carat bands.
    pub bands: Vec<BandFile>,
    /// Where a built snapshot's model came from: `refit` (fitted from that day's
    /// listings), `carried` (copied from an earlier published day) or `reference` (the
    /// reference snapshot's model). Absent in the reference snapshot itself; readers
    /// ignore it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
}

/// `slider`.
#[derive(Debug, Clone, Serialize)]
pub struct SliderFile {
    /// Minimum supported ratio.
    pub min: f64,
    /// Default ratio.
    pub center: f64,
    /// Maximum supported ratio.
    pub max: f64,
}

/// One carat band of a ratio model.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BandFile {
    /// Inclusive lower bound.
    pub min_carat: f64,
    /// Inclusive upper bound; omitted for an open-ended band.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_carat: Option<f64>,
    /// Anchors.
    pub points: Vec<PointFile>,
}

/// One anchor of a band.
#[derive(Debug, Clone, Serialize)]
pub struct PointFile {
    /// L/W ratio.
    pub ratio: f64,
    /// Fitted value.
    pub value: f64,
}

/// `index.json`.
#[derive(Debug, Clone, Serialize)]
pub struct IndexFile {
    /// Composite per-carat price, USD.
    pub dcx: f64,
    /// 24-hour change of `dcx`, percent.
    pub trend: f64,
    /// 7-day change, percent; `null` when the history is too short.
    pub trend_7d: Option<f64>,
    /// 30-day change, percent; `null` when the history is too short.
    pub trend_30d: Option<f64>,
    /// Publication time.
    pub ts: String,
    /// The basket.
    pub specs: Vec<SpecFile>,
}

/// One basket stone.
#[derive(Debug, Clone, Serialize)]
pub struct SpecFile {
    /// Carat weight.
    pub carat: f64,
    /// Colour grade.
    pub color: String,
    /// Clarity grade.
    pub clarity: String,
    /// Cut grade label.
    pub cut: String,
    /// Total price, USD.
    pub price: f64,
    /// USD per carat.
    pub per_carat: f64,
    /// ln(`price`).
    pub log: f64,
    /// Weight in the basket.
    pub weight: f64,
}

/// `depth.json`.
#[derive(Debug, Clone, Serialize)]
pub struct DepthFile {
    /// Carat key -> clarity -> listings.
    pub clarity: Ordered<Ordered<u64>>,
    /// Carat key -> colour -> listings.
    pub color: Ordered<Ordered<u64>>,
    /// Colour -> clarity -> listings, all carats together.
    pub colclar: Ordered<Ordered<u64>>,
    /// Publication time.
    pub ts: String,
}

/// Listing counts of one band: `[colour index][clarity index]`.
pub type BandCounts = [[u64; 8]; 10];

impl DepthFile {
    /// Builds the three consistent views from listing counts per band:
    /// `counts[band][colour index][clarity index]`, bands in the order of `keys`.
    pub fn from_counts(keys: &[&str], counts: &[BandCounts], ts: &str) -> DepthFile {
        use pricing::{Clarity, Color};
        let per_band = |f: &dyn Fn(&BandCounts) -> Vec<(String, u64)>| -> Ordered<Ordered<u64>> {
            Ordered(
                keys.iter()
                    .zip(counts)
                    .map(|(key, band)| ((*key).to_owned(), Ordered(f(band))))
                    .collect(),
            )
        };
        let clarity = per_band(&|band| {
            Clarity::ALL
                .iter()
                .map(|q| (q.as_str().to_owned(), band.iter().map(|row| row[q.index()]).sum()))
                .collect()
        });
        let color = per_band(&|band| {
            Color::ALL
                .iter()
                .map(|c| (c.as_str().to_owned(), band[c.index()].iter().sum()))
                .collect()
        });
        let colclar = Color::ALL
            .iter()
            .map(|c| {
                let row = Clarity::ALL
                    .iter()
                    .map(|q| {
                        (
                            q.as_str().to_owned(),
                            counts.iter().map(|band| band[c.index()][q.index()]).sum(),
                        )
                    })
                    .collect();
                (c.as_str().to_owned(), Ordered(row))
            })
            .collect();
        DepthFile { clarity, color, colclar: Ordered(colclar), ts: ts.to_owned() }
    }
}

/// Serializes a feed the way the service publishes it: pretty JSON, trailing newline.
pub fn to_bytes<T: Serialize>(feed: &T) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(feed).expect("feed types always serialize");
    bytes.push(b'\n');
    bytes
}

/// `matrix_stats.json`: per cell of both matrices, the screened asks, their quantiles
/// and the basis of the price. Written by [`MatrixStatsFile::to_bytes`], one line per
/// cell.
#[derive(Debug, Clone, Serialize)]
pub struct MatrixStatsFile {
    /// Publication time, the snapshot's `ts`.
    pub ts: String,
    /// Colour grades, the rows (as `matrix.json`).
    pub r: Vec<String>,
    /// Clarity grades, the columns.
    pub c: Vec<String>,
    /// `[len(r), len(c)]`.
    pub s: [usize; 2],
    /// The percentiles of each cell's `q`: always `[10, 25, 50, 75, 90]`.
    pub percentiles: [u32; 5],
    /// Band key -> the round cells of the band, row-major.
    pub round: Ordered<Vec<CellStatsFile>>,
    /// Band key -> the cushion cells of the band, row-major.
    pub cushion: Ordered<Vec<CellStatsFile>>,
}

/// One cell of `matrix_stats.json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CellStatsFile {
    /// Screened asks in the cell that day.
    pub n: u32,
    /// Per-carat USD at the 10th, 25th, 50th, 75th and 90th percentile, to the cent.
    pub q: [f64; 5],
    /// `observed`, `looked_back`, `modelled` or `carried`.
    pub basis: String,
}

impl CellStatsFile {
    /// The published form of a cell: quantiles rounded to cents.
    pub fn new(cell: &pricing::CellSpread) -> CellStatsFile {
        CellStatsFile {
            n: cell.observations,
            q: cell.quantiles.map(pricing::round_cents),
            basis: cell.basis.as_str().to_owned(),
        }
    }
}

impl MatrixStatsFile {
    /// The published bytes: the header fields and band keys one per line, each cell one
    /// compact line, a trailing newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = String::from("{\n");
        out.push_str(&format!("  \"ts\": {},\n", json(&self.ts)));
        out.push_str(&format!("  \"r\": {},\n", json(&self.r)));
        out.push_str(&format!("  \"c\": {},\n", json(&self.c)));
        out.push_str(&format!("  \"s\": {},\n", json(&self.s)));
        out.push_str(&format!("  \"percentiles\": {},\n", json(&self.percentiles)));
        for (name, family, last) in
            [("round", &self.round, false), ("cushion", &self.cushion, true)]
        {
            out.push_str(&format!("  \"{name}\": {{\n"));
            for (b, (key, cells)) in family.0.iter().enumerate() {
                out.push_str(&format!("    {}: [\n", json(key)));
                for (i, cell) in cells.iter().enumerate() {
                    let comma = if i + 1 < cells.len() { "," } else { "" };
                    out.push_str(&format!("      {}{comma}\n", json(cell)));
                }
                let comma = if b + 1 < family.0.len() { "," } else { "" };
                out.push_str(&format!("    ]{comma}\n"));
            }
            out.push_str(if last { "  }\n" } else { "  },\n" });
        }
        out.push_str("}\n");
        out.into_bytes()
    }
}

/// Compact JSON of a value.
fn json<T: Serialize + ?Sized>(value: &T) -> String {
    serde_json::to_string(value).expect("feed types always serialize")
}
