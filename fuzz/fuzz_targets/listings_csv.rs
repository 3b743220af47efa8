//! Fuzz target: the listings CSV reader (`methodology::read_listings`). Input: a selector
//! byte (even: the native schema, odd: the `diamonds` layout), then the CSV text (input
//! that is not UTF-8 is skipped: `dcx build` refuses it before reading). Seeds: slices of
//! `fixtures/listings/diamonds-sample.csv` and `fuzz/seeds/listings_csv/`.
//!
//! Checked for every input: no panic; every row is counted once (accepted or rejected
//! for one reason); as many listings as accepted rows; the first `MAX_EXAMPLES`
//! rejections described; a header problem accepts nothing. And what was accepted, written
//! back as native CSV (`fuzz::listings::native_csv`), reads back as the same listings
//! with no row rejected.
#![no_main]

use libfuzzer_sys::fuzz_target;
use methodology::{InputFormat, MAX_EXAMPLES, read_listings};

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let format = if selector % 2 == 0 { InputFormat::Native } else { InputFormat::Diamonds };
    let (listings, counts) = read_listings(text, format);
    assert_eq!(counts.rows, counts.accepted + counts.rejected.total(), "{counts:?}");
    assert_eq!(listings.len() as u64, counts.accepted);
    let described = counts.rejected.total().min(MAX_EXAMPLES as u64);
    assert_eq!(counts.examples.len() as u64, described, "{counts:?}");
    if counts.header_problem.is_some() {
        assert_eq!(counts.accepted, 0);
    }
    let written = fuzz::listings::native_csv(&listings);
    let (again, recounted) = read_listings(&written, InputFormat::Native);
    assert_eq!(recounted.rejected.total(), 0, "{:?}\n{written}", recounted.examples);
    // The native schema trims every field: an identity read from the `diamonds` layout's
    // untrimmed row reads back trimmed.
    let expected: Vec<_> = listings
        .into_iter()
        .map(|mut listing| {
            listing.listing_id = listing.listing_id.map(|id| id.trim().to_owned());
            listing
        })
        .collect();
    assert_eq!(again, expected, "{written}");
});
