//! Reading listings from a CSV stream, one row at a time: the native schema and the
//! `diamonds` data set (docs/methodology.md, section 1), with every rejected row counted
//! by reason. Rows are counted by physical line: no value holds a line break, so a record
//! over several lines (a stray quote that swallowed the lines up to the next quote) is
//! unparseable once per line it spans, and trips the bad-rows gate (`gate.rs`) as the
//! lines would have one by one.

use std::io::{self, BufRead};

use chrono::NaiveDate;
use pricing::{Clarity, Color, Shape};

use crate::{
    csv,
    listing::{Finish, Fluorescence, Listing},
};

mod counts;

pub use counts::{MAX_EXAMPLES, Reason, Rejected, RowCounts};

/// Which CSV schema the input follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// This project's schema (see `docs/methodology.md`).
    Native,
    /// The ggplot2 `diamonds` data set (`carat,cut,color,clarity,depth,table,price,x,y,z`).
    Diamonds,
}

/// The `diamonds` data set's header, in its order.
const DIAMONDS_HEADER: [&str; 10] =
    ["carat", "cut", "color", "clarity", "depth", "table", "price", "x", "y", "z"];

/// True when `names` are exactly the `diamonds` data set's columns (any case, any order).
fn is_diamonds_header(names: &[String]) -> bool {
    let mut names: Vec<String> = names.iter().map(|n| n.trim().to_ascii_lowercase()).collect();
    names.sort();
    let mut expected = DIAMONDS_HEADER.map(str::to_owned);
    expected.sort();
    names == expected
}

/// Reads listings from CSV text; see [`ListingReader`], which this collects. Never fails:
/// unreadable rows are counted (and the first few described) in the returned
/// [`RowCounts`].
pub fn read_listings(text: &str, format: InputFormat) -> (Vec<Listing>, RowCounts) {
    let mut reader =
        ListingReader::new(text.as_bytes(), format).expect("reading from memory cannot fail");
    let listings = reader
        .by_ref()
        .collect::<std::io::Result<Vec<Listing>>>()
        .expect("reading from memory cannot fail");
    (listings, reader.into_counts())
}

/// Listings read from a CSV stream one at a time (an iterator of `io::Result<Listing>`):
/// only the current record is held, whatever the size of the input. Unreadable rows are
/// not handed out but counted (and the first few described) in [`ListingReader::counts`];
/// the only errors are the stream's own.
///
/// The header is read by [`ListingReader::new`]. A header without a required column makes
/// every row unparseable and is named in [`RowCounts::header_problem`]. A
/// [`InputFormat::Native`] read of a file whose header is exactly the `diamonds` columns
/// reads it as [`InputFormat::Diamonds`], with a note.
pub struct ListingReader<R> {
    records: csv::Records<R>,
    format: InputFormat,
    /// The columns, or why the header is unusable.
    columns: Result<Columns, String>,
    counts: RowCounts,
}

impl<R: BufRead> ListingReader<R> {
    /// Starts reading `input` in `format`: reads its header.
    pub fn new(input: R, format: InputFormat) -> io::Result<ListingReader<R>> {
        let mut records = csv::Records::new(input)?;
        let mut counts = RowCounts::default();
        let mut format = format;
        let columns = match records.next_record()? {
            None => Err("the file is empty: no header row".to_owned()),
            Some(header) if header.breaks > 0 => {
                // The lines after the header's first are data lines it swallowed.
                let swallowed = header.lines as u64 - 1;
                counts.rows += swallowed;
                counts.rejected.add(Reason::Unparseable, swallowed);
                counts.swallowed_lines += swallowed;
                Err(format!("header: {}", over_lines(header.lines, header.fields.err())))
            }
            Some(header) => header.fields.map_err(|e| format!("header: {e}")).and_then(|names| {
                if format == InputFormat::Native && is_diamonds_header(names) {
                    format = InputFormat::Diamonds;
                    counts.notes.push(
                        "the header is the ggplot2 `diamonds` layout: read as `--format diamonds` (every stone round)"
                            .to_owned(),
                    );
                }
                Columns::find(names, format).map_err(|missing| missing_column(names, format, missing))
            }),
        };
        if let Err(problem) = &columns {
            counts.header_problem = Some(problem.clone());
        }
        Ok(ListingReader { records, format, columns, counts })
    }

    /// What reading did with the rows so far.
    pub fn counts(&self) -> &RowCounts {
        &self.counts
    }

    /// What reading did with the rows.
    pub fn into_counts(self) -> RowCounts {
        self.counts
    }
}

impl<R: BufRead> Iterator for ListingReader<R> {
    type Item = io::Result<Listing>;

    fn next(&mut self) -> Option<io::Result<Listing>> {
        loop {
            let record = match self.records.next_record() {
                Ok(Some(record)) => record,
                Ok(None) => return None,
                Err(err) => return Some(Err(err)),
            };
            self.counts.rows += record.lines as u64;
            let row = match &self.columns {
                Err(why) => Err((Reason::Unparseable, why.clone())),
                _ if record.breaks > 0 => {
                    Err((Reason::Unparseable, over_lines(record.lines, record.fields.err())))
                }
                Ok(columns) => {
                    record.fields.map_err(|e| (Reason::Unparseable, e)).and_then(|fields| {
                        if fields.len() != columns.width {
                            return Err((
                                Reason::Unparseable,
                                format!("expected {} fields, got {}", columns.width, fields.len()),
                            ));
                        }
                        columns.listing(fields, self.format)
                    })
                }
            };
            match row {
                Ok(listing) => {
                    self.counts.accepted += 1;
                    return Some(Ok(listing));
                }
                Err((reason, why)) => {
                    self.counts.reject_lines("line", record.line, record.lines, reason, &why);
                }
            }
        }
    }
}

/// Why a record whose quoted values hold line breaks is unparseable, with the reader's
/// own complaint if it has one (e.g. a record too long to keep).
fn over_lines(lines: usize, error: Option<String>) -> String {
    let why = error.unwrap_or_else(|| "a quoted value holds a line break".to_owned());
    match lines {
        1 => format!(
            "{why} (a quote still open at the end of the file?); no column may hold a line break"
        ),
        _ => format!(
            "one record over {lines} lines (a stray quote?): {why}; no column may hold a line break, so each line counts as an unparseable row"
        ),
    }
}

/// The header problem of a missing column: which, the columns found and those required.
fn missing_column(names: &[String], format: InputFormat, missing: &str) -> String {
    let (wanted, hint) = match format {
        InputFormat::Native => {
            (REQUIRED.as_slice(), "; for the ggplot2 `diamonds` layout use `--format diamonds`")
        }
        InputFormat::Diamonds => (DIAMONDS_HEADER.as_slice(), ""),
    };
    format!(
        "header lacks column `{missing}` (the columns are {}; required: {}){hint}",
        names.iter().map(|n| format!("`{}`", n.trim())).collect::<Vec<_>>().join(", "),
        wanted.join(", "),
    )
}

type RowError = (Reason, String);

/// Column positions found in the header.
struct Columns {
    width: usize,
    required: [usize; 6],
    optional: [Option<usize>; 9],
}

const REQUIRED: [&str; 6] = ["carat", "color", "clarity", "shape", "cut", "price"];
const OPTIONAL: [&str; 9] = [
    "length",
    "width",
    "lw_ratio",
    "lab",
    "polish",
    "symmetry",
    "fluorescence",
    "listing_id",
    "observed",
];

impl Columns {
    fn find(names: &[String], format: InputFormat) -> Result<Columns, &'static str> {
        let position = |name: &str| names.iter().position(|n| n.trim().eq_ignore_ascii_case(name));
        let mut required = [0; 6];
        let mut optional = [None; 9];
        for (slot, name) in REQUIRED.iter().enumerate() {
            required[slot] = match (format, *name) {
                (InputFormat::Diamonds, "shape") => usize::MAX,
                _ => position(name).ok_or(*name)?,
            };
        }
        for (slot, name) in OPTIONAL.iter().enumerate() {
            optional[slot] = match (format, *name) {
                (InputFormat::Diamonds, "length") => Some(position("x").ok_or("x")?),
                (InputFormat::Diamonds, "width") => Some(position("y").ok_or("y")?),
                (InputFormat::Diamonds, _) => None,
                (InputFormat::Native, _) => position(name),
            };
        }
        Ok(Columns { width: names.len(), required, optional })
    }

    fn listing(&self, fields: &[String], format: InputFormat) -> Result<Listing, RowError> {
        let req = |slot: usize| -> Result<&str, RowError> {
            let value = fields[self.required[slot]].trim();
            if value.is_empty() {
                return Err((Reason::Unparseable, format!("empty `{}`", REQUIRED[slot])));
            }
            Ok(value)
        };
        let opt = |slot: usize| {
            self.optional[slot].map(|i| fields[i].trim()).filter(|value| !value.is_empty())
        };
        let carat = number("carat", req(0)?)?;
        let color = color(req(1)?)?;
        let clarity = clarity(req(2)?)?;
        let shape = match format {
            InputFormat::Diamonds => Shape::Round,
            InputFormat::Native => shape(req(3)?)?,
        };
        let cut = finish("cut", req(4)?)?;
        let price = number("price", req(5)?)?;
        let length = opt(0).map(|v| number("length", v)).transpose()?;
        let width = opt(1).map(|v| number("width", v)).transpose()?;
        let lw_ratio = match (opt(2).map(|v| number("lw_ratio", v)).transpose()?, length, width) {
            (Some(ratio), _, _) => Some(ratio),
            (None, Some(l), Some(w)) => dims_ratio(l, w)?,
            _ => None,
        };
        Ok(Listing {
            carat,
            color,
            clarity,
            shape,
            cut,
            price,
            lw_ratio,
            lab: opt(3).map(|v| v.to_ascii_uppercase()),
            polish: opt(4).map(|v| finish("polish", v)).transpose()?,
            symmetry: opt(5).map(|v| finish("symmetry", v)).transpose()?,
            fluorescence: opt(6)
                .map(|v| {
                    Fluorescence::parse(v)
                        .ok_or_else(|| (Reason::Unparseable, format!("unknown fluorescence {v:?}")))
                })
                .transpose()?,
            listing_id: match format {
                // The data set has no ids: a stone is identified by all ten columns.
                InputFormat::Diamonds => Some(fields.join(",")),
                InputFormat::Native => opt(7).map(str::to_owned),
            },
            observed: opt(8)
                .map(|v| {
                    NaiveDate::parse_from_str(v, "%Y-%m-%d").map_err(|_| {
                        (Reason::Unparseable, format!("observed {v:?} is not YYYY-MM-DD"))
                    })
                })
                .transpose()?,
        })
    }
}

/// Length and width to an L/W ratio: both zero or either zero means "not measured";
/// a negative dimension is impossible.
fn dims_ratio(length: f64, width: f64) -> Result<Option<f64>, RowError> {
    if length < 0.0 || width < 0.0 || !length.is_finite() || !width.is_finite() {
        return Err((Reason::Impossible, format!("dimensions {length} x {width} mm")));
    }
    if length == 0.0 || width == 0.0 {
        return Ok(None);
    }
    Ok(Some(length.max(width) / length.min(width)))
}

/// A number: digits, sign, point and exponent only (no thousands separator). `NaN`,
/// `inf` and `infinity` (any case, any sign) read but are impossible values, and so is a
/// number too large for an `f64` (`1e999`), which would read as infinity.
fn number(name: &str, text: &str) -> Result<f64, RowError> {
    let word = text.trim_start_matches(['+', '-']);
    let not_finite = || (Reason::Impossible, format!("`{name}` {text} is not a finite number"));
    if ["nan", "inf", "infinity"].iter().any(|w| word.eq_ignore_ascii_case(w)) {
        return Err(not_finite());
    }
    let bytes = text.as_bytes();
    let numeric =
        bytes.iter().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'e' | b'E'));
    match text.parse::<f64>() {
        Ok(value) if numeric && value.is_finite() => Ok(value),
        Ok(_) if numeric => Err(not_finite()),
        _ => Err((Reason::Unparseable, format!("`{name}` {text:?} is not a number"))),
    }
}

fn color(text: &str) -> Result<Color, RowError> {
    Color::parse(text).map_err(|_| {
        let upper = text.to_ascii_uppercase();
        if upper.len() == 1 && ("N"..="Z").contains(&upper.as_str()) || upper.starts_with("FANCY") {
            (Reason::OutOfScope, format!("colour {text}"))
        } else {
            (Reason::Unparseable, format!("unknown colour {text:?}"))
        }
    })
}

fn clarity(text: &str) -> Result<Clarity, RowError> {
    Clarity::parse(text).map_err(|_| {
        if ["I1", "I2", "I3", "SI3"].iter().any(|g| g.eq_ignore_ascii_case(text)) {
            (Reason::OutOfScope, format!("clarity {text}"))
        } else {
            (Reason::Unparseable, format!("unknown clarity {text:?}"))
        }
    })
}

/// Shapes: the eight published ones (with `brilliant`/`modified` suffixes dropped); any
/// other word made of letters and spaces is a real shape out of scope (princess, ...).
fn shape(text: &str) -> Result<Shape, RowError> {
    let lower = text.to_ascii_lowercase();
    let base = lower.split_whitespace().next().unwrap_or("");
    Shape::parse(base).map_err(|_| {
        if text.chars().all(|c| c.is_ascii_alphabetic() || c == ' ' || c == '-') {
            (Reason::OutOfScope, format!("shape {text}"))
        } else {
            (Reason::Unparseable, format!("unknown shape {text:?}"))
        }
    })
}

fn finish(name: &str, text: &str) -> Result<Finish, RowError> {
    Finish::parse(text)
        .ok_or_else(|| (Reason::Unparseable, format!("unknown {name} grade {text:?}")))
}

#[cfg(test)]
mod tests;
