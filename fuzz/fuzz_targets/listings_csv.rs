//! Fuzz target: the listings CSV reader (`methodology::ListingReader`, the stream
//! `dcx build` reads; `read_listings` collects it). Input: a selector byte (even: the
//! native schema, odd: the `diamonds` layout; `byte / 2 % 16 + 1`: a buffer size), then
//! the CSV bytes. Seeds: slices of `fixtures/listings/diamonds-sample.csv` and
//! `fuzz/seeds/listings_csv/`.
//!
//! Checked for every input: no panic; the same listings and counts whether the reader
//! gets the input in one buffer or in chunks of 1 to 16 bytes (so a record, a quote or a
//! line end split anywhere reads the same); every row counted once (accepted or rejected
//! for one reason; a record over several lines is unparseable and counts once per line);
//! as many listings as accepted rows; the first `MAX_EXAMPLES` rejected records
//! described; a header problem accepts nothing. And what was accepted, written back as
//! native CSV (`fuzz::listings::native_csv`), reads back as the same listings with no row
//! rejected.
#![no_main]

use std::io::{BufRead, BufReader};

use libfuzzer_sys::fuzz_target;
use methodology::{InputFormat, Listing, ListingReader, MAX_EXAMPLES, RowCounts};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, csv)) = data.split_first() else { return };
    let format = if selector % 2 == 0 { InputFormat::Native } else { InputFormat::Diamonds };
    let (listings, counts) = read(csv, format);
    let chunk = usize::from(selector / 2 % 16) + 1;
    let chunked = read(BufReader::with_capacity(chunk, csv), format);
    assert!(chunked == (listings.clone(), counts.clone()), "{chunk}-byte chunks read otherwise");

    assert_eq!(counts.rows, counts.accepted + counts.rejected.total(), "{counts:?}");
    assert_eq!(listings.len() as u64, counts.accepted);
    // One example per rejected record: a record over several lines counts one row per
    // line but is described once.
    assert!(counts.swallowed_lines <= counts.rejected.unparseable, "{counts:?}");
    let described = (counts.rejected.total() - counts.swallowed_lines).min(MAX_EXAMPLES as u64);
    assert_eq!(counts.examples.len() as u64, described, "{counts:?}");
    if counts.header_problem.is_some() {
        assert_eq!(counts.accepted, 0);
    }

    let written = fuzz::listings::native_csv(&listings);
    let (again, recounted) = read(written.as_bytes(), InputFormat::Native);
    assert_eq!(recounted.rejected.total(), 0, "{:?}\n{written}", recounted.examples);
    // The native schema trims every field: an identity read from the `diamonds` layout's
    // untrimmed row reads back trimmed.
    let expected: Vec<Listing> = listings
        .into_iter()
        .map(|mut listing| {
            listing.listing_id = listing.listing_id.map(|id| id.trim().to_owned());
            listing
        })
        .collect();
    assert_eq!(again, expected, "{written}");
});

/// Every listing of `input` and the counts, as `dcx build` reads them.
fn read(input: impl BufRead, format: InputFormat) -> (Vec<Listing>, RowCounts) {
    let mut reader = ListingReader::new(input, format).expect("reading memory cannot fail");
    let listings = reader.by_ref().collect::<std::io::Result<Vec<Listing>>>();
    (listings.expect("reading memory cannot fail"), reader.into_counts())
}
