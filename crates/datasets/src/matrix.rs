//! Parsing `matrix.json` and `matrix_cushion.json` (docs/decisions.md 2.1) into a
//! [`pricing::PriceMatrix`].

use chrono::{DateTime, Utc};
use pricing::{Clarity, Color, PriceMatrix};

use crate::reader::{Reader, child, clip, item, quoted};

/// A parsed matrix feed.
#[derive(Debug, Clone)]
pub(crate) struct MatrixFeed {
    pub(crate) matrix: PriceMatrix,
    pub(crate) ts: DateTime<Utc>,
}

/// Reads one matrix feed; every problem is recorded in `reader`.
pub(crate) fn parse(reader: &mut Reader, bytes: &[u8]) -> Option<MatrixFeed> {
    let root = reader.parse(bytes)?;
    let object = reader.object(&root, "")?;
    let ts = reader.ts(object);
    let colors = grade_list(reader, object.get("r"), "r", Color::parse);
    let clarities = grade_list(reader, object.get("c"), "c", Clarity::parse);
    let shape = object.get("s").map(|value| {
        let expected = [colors.as_ref().map(Vec::len), clarities.as_ref().map(Vec::len)];
        check_shape(reader, value, expected)
    });
    if shape.is_none() {
        reader.issue("", "missing field `s`");
    }
    let cells = colors.as_ref().zip(clarities.as_ref()).map(|(r, c)| r.len() * c.len());
    let bands =
        object.get("l").and_then(|l| carat_bands(reader, l, "/l", cells, "values", Reader::number));
    if object.get("l").is_none() {
        reader.issue("", "missing field `l`");
    }
    let (colors, clarities, mut bands, ts) = (colors?, clarities?, bands?, ts?);
    bands.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut duplicate = false;
    for pair in bands.windows(2) {
        if pair[0].0 == pair[1].0 {
            reader.issue(
                "/l",
                format!(
                    "band keys {} and {} name the same carat",
                    quoted(&pair[0].1),
                    quoted(&pair[1].1)
                ),
            );
            duplicate = true;
        }
    }
    if duplicate {
        return None;
    }
    let carats = bands.iter().map(|band| band.0).collect();
    let values = bands.into_iter().flat_map(|band| band.2).collect();
    let matrix = reader.ok("/l", PriceMatrix::new(carats, colors, clarities, values))?;
    Some(MatrixFeed { matrix, ts })
}

pub(crate) fn grade_list<T>(
    reader: &mut Reader,
    value: Option<&serde_json::Value>,
    key: &str,
    parse: impl Fn(&str) -> Result<T, pricing::Error>,
) -> Option<Vec<T>> {
    let Some(value) = value else {
        reader.issue("", format!("missing field `{key}`"));
        return None;
    };
    let pointer = format!("/{key}");
    let items = reader.array(value, &pointer)?;
    let mut grades = Vec::with_capacity(items.len());
    let mut ok = true;
    for (i, entry) in items.iter().enumerate() {
        let at = item(&pointer, i);
        match reader.string(entry, &at).and_then(|text| reader.ok(&at, parse(text))) {
            Some(grade) => grades.push(grade),
            None => ok = false,
        }
    }
    ok.then_some(grades)
}

fn check_shape(reader: &mut Reader, value: &serde_json::Value, expected: [Option<usize>; 2]) {
    let Some(items) = reader.array(value, "/s") else { return };
    let dims: Vec<Option<u64>> =
        items.iter().enumerate().map(|(i, v)| reader.count(v, &item("/s", i))).collect();
    if dims.len() != 2 {
        reader.issue(
            "/s",
            format!("expected [rows, cols], an array of 2 integers, got {} entries", dims.len()),
        );
        return;
    }
    if let [Some(rows), Some(cols)] = expected
        && (dims[0] != Some(rows as u64) || dims[1] != Some(cols as u64))
    {
        reader.issue(
            "/s",
            format!(
                "expected [len(r), len(c)] = [{rows}, {cols}], got {}",
                clip(&value.to_string())
            ),
        );
    }
}

/// Reads an object of band keys (`l`, or a family of `matrix_stats.json`), each an array
/// of `per_band` items (rows x cols, when known) that `read` reads: every band's carat,
/// key and items, in the file's order.
pub(crate) fn carat_bands<T>(
    reader: &mut Reader,
    value: &serde_json::Value,
    pointer: &str,
    per_band: Option<usize>,
    what: &str,
    mut read: impl FnMut(&mut Reader, &serde_json::Value, &str) -> Option<T>,
) -> Option<Vec<(f64, String, Vec<T>)>> {
    let object = reader.object(value, pointer)?;
    let mut bands = Vec::with_capacity(object.len());
    let mut ok = true;
    for (key, values) in object {
        let at = child(pointer, key);
        let carat = reader.carat_key(key, &at);
        let Some(items) = reader.array(values, &at) else {
            ok = false;
            continue;
        };
        if let Some(per_band) = per_band
            && items.len() != per_band
        {
            let got = items.len();
            reader.issue(&at, format!("expected rows x cols = {per_band} {what}, got {got}"));
            ok = false;
        }
        let parsed: Vec<Option<T>> =
            items.iter().enumerate().map(|(i, v)| read(reader, v, &item(&at, i))).collect();
        match (carat, parsed.into_iter().collect::<Option<Vec<T>>>()) {
            (Some(carat), Some(parsed)) => bands.push((carat, key.clone(), parsed)),
            _ => ok = false,
        }
    }
    ok.then_some(bands)
}
