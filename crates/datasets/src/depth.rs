//! Parsing `depth.json` (docs/decisions.md 2.4): listing counts by carat and grade.

use chrono::{DateTime, Utc};
use pricing::{Clarity, Color};
use serde_json::{Map, Value};

use crate::reader::{Reader, child, quoted};

/// Counts at one carat key.
#[derive(Debug, Clone, PartialEq)]
pub struct DepthPoint {
    /// The carat key as published, e.g. `"1.0"`.
    pub key: String,
    /// The key's numeric value.
    pub carat: f64,
    /// Listing counts by clarity, in the feed's order.
    pub clarity: Vec<(Clarity, u64)>,
    /// Listing counts by colour, in the feed's order.
    pub color: Vec<(Color, u64)>,
}

impl DepthPoint {
    /// Listings at this carat: the sum of the clarity counts (equal to the colour sum in a
    /// valid snapshot).
    pub fn total(&self) -> u64 {
        self.clarity.iter().map(|(_, n)| n).sum()
    }
}

/// The parsed depth feed.
#[derive(Debug, Clone, PartialEq)]
pub struct Depth {
    /// The carat points, by ascending carat.
    pub points: Vec<DepthPoint>,
    /// Total listings per colour x clarity pair.
    pub colclar: Vec<(Color, Clarity, u64)>,
    /// Snapshot timestamp.
    pub ts: DateTime<Utc>,
}

impl Depth {
    /// The point nearest to `carat` by numeric distance; a tie goes to the lower key.
    pub fn nearest(&self, carat: f64) -> Option<&DepthPoint> {
        // `min_by` keeps the first of equals: the points ascend, so the lower key.
        let distance = |point: &DepthPoint| (point.carat - carat).abs();
        self.points.iter().min_by(|a, b| distance(a).total_cmp(&distance(b)))
    }
}

pub(crate) fn parse(reader: &mut Reader, bytes: &[u8]) -> Option<Depth> {
    let root = reader.parse(bytes)?;
    let object = reader.object(&root, "")?;
    let ts = reader.ts(object);
    let clarity = reader
        .field(object, "", "clarity")
        .and_then(|v| by_key(reader, v, "/clarity", Reader::carat_key, Clarity::parse));
    let color = reader
        .field(object, "", "color")
        .and_then(|v| by_key(reader, v, "/color", Reader::carat_key, Color::parse));
    let colclar = reader.field(object, "", "colclar").and_then(|v| colclar(reader, v));
    let (clarity, color, colclar, ts) = (clarity?, color?, colclar?, ts?);
    let mut points = Vec::with_capacity(clarity.len());
    let mut ok = true;
    for (key, carat, by_clarity) in clarity {
        let Some((_, _, by_color)) = color.iter().find(|(k, _, _)| *k == key) else {
            reader.issue(
                &child("/color", &key),
                format!("carat key {} is in `clarity` but not in `color`", quoted(&key)),
            );
            ok = false;
            continue;
        };
        points.push(DepthPoint { key, carat, clarity: by_clarity, color: by_color.clone() });
    }
    for (key, _, _) in &color {
        if !points.iter().any(|p| &p.key == key) && ok {
            reader.issue(
                &child("/clarity", key),
                format!("carat key {} is in `color` but not in `clarity`", quoted(key)),
            );
            ok = false;
        }
    }
    points.sort_by(|a, b| a.carat.total_cmp(&b.carat));
    for pair in points.windows(2) {
        if pair[0].carat == pair[1].carat {
            reader.issue(
                "/clarity",
                format!(
                    "carat keys {} and {} name the same carat",
                    quoted(&pair[0].key),
                    quoted(&pair[1].key)
                ),
            );
            ok = false;
        }
    }
    ok.then_some(Depth { points, colclar, ts })
}

type Counts<K, T> = Vec<(String, K, Vec<(T, u64)>)>;

/// An object of grade counts per key (a carat key, or a colour in `colclar`): each key as
/// its text and as `read_key` reads it, each grade as `parse` reads it.
fn by_key<K, T>(
    reader: &mut Reader,
    value: &Value,
    pointer: &str,
    read_key: impl Fn(&mut Reader, &str, &str) -> Option<K>,
    parse: impl Fn(&str) -> Result<T, pricing::Error> + Copy,
) -> Option<Counts<K, T>> {
    let object = reader.object(value, pointer)?;
    let mut out = Vec::with_capacity(object.len());
    let mut ok = true;
    for (key, counts) in object {
        let at = child(pointer, key);
        let read = read_key(reader, key, &at);
        let counts =
            reader.object(counts, &at).and_then(|counts| grade_counts(reader, counts, &at, parse));
        match (read, counts) {
            (Some(read), Some(counts)) => out.push((key.clone(), read, counts)),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

fn grade_counts<T>(
    reader: &mut Reader,
    object: &Map<String, Value>,
    pointer: &str,
    parse: impl Fn(&str) -> Result<T, pricing::Error>,
) -> Option<Vec<(T, u64)>> {
    let mut out = Vec::with_capacity(object.len());
    let mut ok = true;
    for (key, count) in object {
        let at = child(pointer, key);
        match (reader.ok(&at, parse(key)), reader.count(count, &at)) {
            (Some(grade), Some(count)) => out.push((grade, count)),
            _ => ok = false,
        }
    }
    ok.then_some(out)
}

fn colclar(reader: &mut Reader, value: &Value) -> Option<Vec<(Color, Clarity, u64)>> {
    let color = |reader: &mut Reader, key: &str, at: &str| reader.ok(at, Color::parse(key));
    let rows = by_key(reader, value, "/colclar", color, Clarity::parse)?;
    let cells = rows.into_iter().flat_map(|(_, color, counts)| {
        counts.into_iter().map(move |(clarity, n)| (color, clarity, n))
    });
    Some(cells.collect())
}
