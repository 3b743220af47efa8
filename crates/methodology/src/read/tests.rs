//! Tests of `read`: the native schema, the `diamonds` adapter and every bad-row class.

use pricing::{Clarity, Color, Shape};
use proptest::prelude::*;

use super::{InputFormat, ListingReader, MAX_EXAMPLES, Rejected, read_listings};
use crate::listing::{Finish, Fluorescence};

const HEADER: &str = "listing_id,carat,color,clarity,shape,cut,price,length,width,lw_ratio,lab,polish,symmetry,fluorescence,observed,note";

#[test]
fn native_row_with_every_column() {
    let text = format!(
        "{HEADER}\n\"A-1\",1.01,g,vs2,Oval,Excellent,\"7,000\",8.1,6,,gia,EX,VG,None,2026-11-20,\"says \"\"hi\"\"\"\n"
    );
    let (listings, counts) = read_listings(&text, InputFormat::Native);
    // "7,000" is not a number: the thousands separator is not accepted.
    assert_eq!(counts.rejected.unparseable, 1);
    assert!(listings.is_empty());
    let text = text.replace("\"7,000\"", "7000");
    let (listings, counts) = read_listings(&text, InputFormat::Native);
    assert_eq!((counts.rows, counts.accepted), (1, 1), "{:?}", counts.examples);
    let l = &listings[0];
    assert_eq!(
        (l.carat, l.color, l.clarity, l.shape, l.cut),
        (1.01, Color::G, Clarity::Vs2, Shape::Oval, Finish::Excellent)
    );
    assert_eq!(l.price, 7000.0);
    assert_eq!(l.lw_ratio, Some(8.1 / 6.0));
    assert_eq!(l.lab.as_deref(), Some("GIA"));
    assert_eq!((l.polish, l.symmetry), (Some(Finish::Excellent), Some(Finish::VeryGood)));
    assert_eq!(l.fluorescence, Some(Fluorescence::None));
    assert_eq!(l.listing_id.as_deref(), Some("A-1"));
    assert_eq!(l.observed.map(|d| d.to_string()).as_deref(), Some("2026-11-20"));
}

#[test]
fn minimal_native_schema_in_any_column_order() {
    let text = "PRICE,Shape,cut,clarity,color,carat\n5000,round brilliant,ideal,SI1,H,1.0\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert_eq!(counts.accepted, 1, "{:?}", counts.examples);
    assert_eq!(listings[0].shape, Shape::Round);
    assert_eq!(listings[0].lw_ratio, None);
    assert_eq!(listings[0].listing_id, None);
}

#[test]
fn every_bad_row_class_is_counted() {
    let rows = [
        "1.0,G,VS2,round,EX,abc",      // unparseable: price
        "1.0,G+,VS2,round,EX,5000",    // unparseable: colour word
        "1.0,G,VS9,round,EX,5000",     // unparseable: clarity word
        "1.0,G,VS2,round,Superb,5000", // unparseable: cut word
        "1.0,G,VS2,round,EX",          // unparseable: field count
        ",G,VS2,round,EX,5000",        // unparseable: empty required value
        "1.0,G,VS2,round#,EX,5000",    // unparseable: shape
        "1.0,N,VS2,round,EX,5000",     // out of scope: colour N
        "1.0,G,I1,round,EX,5000",      // out of scope: clarity I1
        "1.0,G,VS2,princess,EX,5000",  // out of scope: shape
        "1.0,G,VS2,round,EX,5000",     // fine
        "\"1.0,G,VS2,round,EX,5000",   // unparseable: open quote (runs to the end)
    ];
    let text = format!("carat,color,clarity,shape,cut,price\n{}\n", rows.join("\n"));
    let (listings, counts) = read_listings(&text, InputFormat::Native);
    assert_eq!(listings.len(), 1);
    assert_eq!(counts.rows, 12);
    assert_eq!(
        counts.rejected,
        Rejected { unparseable: 8, impossible: 0, out_of_scope: 3, duplicate: 0 },
        "{:#?}",
        counts.examples
    );
    assert!(
        counts.examples[0].starts_with("line 2: unparseable: `price`"),
        "{}",
        counts.examples[0]
    );
}

#[test]
fn negative_dimensions_are_impossible_and_zero_means_unmeasured() {
    let text = "carat,color,clarity,shape,cut,price,length,width\n1,G,VS2,oval,EX,5000,-1,5\n1,G,VS2,oval,EX,5000,0,5\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert_eq!(counts.rejected.impossible, 1);
    assert_eq!(listings.len(), 1);
    assert_eq!(listings[0].lw_ratio, None);
}

#[test]
fn diamonds_adapter() {
    let text = "\"carat\",\"cut\",\"color\",\"clarity\",\"depth\",\"table\",\"price\",\"x\",\"y\",\"z\"\n\
        0.31,\"Ideal\",\"E\",\"VS1\",61.5,55,900,4.4,4.36,2.7\n\
        0.31,\"Very Good\",\"J\",\"I1\",61.5,55,400,4.4,4.36,2.7\n\
        0.5,\"Premium\",\"D\",\"SI2\",61,57,1200,0,0,0\n\
        0.31,\"Ideal\",\"E\",\"VS1\",61.5,55,900,4.4,4.36,2.7\n";
    let (listings, counts) = read_listings(text, InputFormat::Diamonds);
    assert_eq!(counts.rejected.out_of_scope, 1, "I1");
    assert_eq!(listings.len(), 3);
    let first = &listings[0];
    assert_eq!(
        (first.shape, first.cut, first.color, first.clarity),
        (Shape::Round, Finish::Ideal, Color::E, Clarity::Vs1)
    );
    assert_eq!(first.lw_ratio, Some(4.4 / 4.36));
    assert_eq!(listings[1].cut, Finish::Premium);
    assert_eq!(listings[1].lw_ratio, None, "zero dimensions give no ratio");
    // The whole row is the identity: the repeated row is the same listing id.
    assert_eq!(listings[0].listing_id, listings[2].listing_id);
    assert_ne!(listings[0].listing_id, listings[1].listing_id);
}

#[test]
fn a_missing_column_is_named_with_the_columns_found_and_rejects_every_row() {
    let text = "carat,colour,clarity,shape,cut,price\n1.0,G,VS2,round,EX,5000\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert!(listings.is_empty());
    let problem = counts.header_problem.expect("header problem");
    assert!(problem.starts_with("header lacks column `color` (the columns are `carat`, `colour`,"));
    assert!(problem.ends_with("for the ggplot2 `diamonds` layout use `--format diamonds`"));
    assert_eq!(counts.rejected.unparseable, 1);
    let text = "carat,color,clarity,cut,price\n1,G,VS2,EX,1\n2,G,VS2,EX,1\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert!(listings.is_empty());
    assert_eq!(counts.rejected.unparseable, 2);
    assert!(counts.examples[0].contains("header lacks column `shape`"), "{:?}", counts.examples);
    let (listings, empty) = read_listings("", InputFormat::Native);
    assert!(listings.is_empty());
    assert_eq!(empty.rows, 0);
    assert_eq!(empty.header_problem.as_deref(), Some("the file is empty: no header row"));
}

#[test]
fn the_diamonds_layout_is_recognised_from_its_header() {
    let text = "\"carat\",\"cut\",\"color\",\"clarity\",\"depth\",\"table\",\"price\",\"x\",\"y\",\"z\"\n0.5,\"Ideal\",\"E\",\"VS1\",61.5,55,1800,5.1,5.12,3.14\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert_eq!(counts.header_problem, None);
    assert_eq!(listings.len(), 1);
    assert_eq!(listings[0].shape, Shape::Round);
    assert_eq!(counts.notes.len(), 1);
    assert!(counts.notes[0].contains("`diamonds` layout"), "{:?}", counts.notes);
}

/// `NaN`, `inf` and numbers too large for an `f64` (which parse as infinity) are
/// impossible values, not unparseable ones (`1e999` was once accepted; the fuzz round
/// trip of `fuzz/fuzz_targets/listings_csv.rs` caught it).
#[test]
fn nan_infinity_and_numbers_too_large_for_f64_are_impossible() {
    let rows = [
        "1e999,G,VS2,round,EX,5000,",
        "1.0,G,VS2,round,EX,-1E400,",
        "1.0,G,VS2,oval,EX,5000,1e309",
        "1.0,G,VS2,round,EX,NaN,",
        "1.0,G,VS2,round,EX,inf,",
        "-Infinity,G,VS2,round,EX,5000,",
    ];
    let text = format!("carat,color,clarity,shape,cut,price,lw_ratio\n{}\n", rows.join("\n"));
    let (listings, counts) = read_listings(&text, InputFormat::Native);
    assert!(listings.is_empty(), "{listings:?}");
    assert_eq!(counts.rejected, Rejected { impossible: 6, ..Rejected::default() });
    assert!(counts.examples[0].ends_with("`carat` 1e999 is not a finite number"), "{counts:?}");
}

#[test]
fn a_stream_is_read_one_listing_at_a_time() {
    let text = "carat,color,clarity,shape,cut,price\n1.0,G,VS2,round,EX,5000\nbad\n1.1,H,SI1,oval,EX,4000\n";
    let mut reader = ListingReader::new(text.as_bytes(), InputFormat::Native).expect("memory");
    let first = reader.next().expect("a listing").expect("memory");
    assert_eq!((first.carat, first.price), (1.0, 5000.0));
    assert_eq!((reader.counts().rows, reader.counts().accepted), (1, 1));
    let second = reader.next().expect("a listing").expect("memory");
    assert_eq!(second.shape, Shape::Oval);
    assert_eq!(reader.counts().rejected.unparseable, 1, "the bad row was counted on the way");
    assert!(reader.next().is_none());
    assert_eq!(reader.into_counts(), read_listings(text, InputFormat::Native).1);
}

#[test]
fn a_failing_stream_is_an_error_not_a_bad_row() {
    struct Failing;
    impl std::io::Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("disk on fire"))
        }
    }
    let input = std::io::Read::chain(
        "carat,color,clarity,shape,cut,price\n1.0,G,VS2,round,EX,5000\n".as_bytes(),
        std::io::BufReader::new(Failing),
    );
    let mut reader = ListingReader::new(input, InputFormat::Native).expect("the header reads");
    assert!(reader.next().expect("one").is_ok());
    let err = reader.next().expect("an error").expect_err("the stream fails");
    assert_eq!(err.to_string(), "disk on fire");
}

#[test]
fn a_record_over_several_lines_counts_every_line_it_swallowed() {
    // A stray quote in row 2 swallows the lines up to the next quote, in row 5: one
    // record of four lines, counted as four unparseable rows.
    let text = "carat,color,clarity,shape,cut,price\n\
        1.0,G,VS2,round,EX,5000\n\
        1.0,G,VS2,\"round,EX,5001\n\
        1.1,G,VS2,round,EX,5002\n\
        1.2,G,VS2,round,EX,5003\n\
        1.3,G,VS2,round\",EX,5004\n\
        1.4,G,VS2,round,EX,5005\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert_eq!(listings.len(), 2);
    assert_eq!((counts.rows, counts.accepted, counts.swallowed_lines), (6, 2, 3));
    assert_eq!(counts.rejected, Rejected { unparseable: 4, ..Rejected::default() });
    assert_eq!(counts.rows, counts.accepted + counts.rejected.total());
    assert_eq!(
        counts.examples,
        [
            "lines 3-6: unparseable: one record over 4 lines (a stray quote?): a quoted value holds a line break; no column may hold a line break, so each line counts as an unparseable row"
        ]
    );
}

#[test]
fn a_record_over_several_lines_is_refused_even_when_its_fields_would_read() {
    // The quote opens the last column and closes at the end of a later row: the record
    // has the right field count and every value reads, yet it swallowed two listings.
    let text = "carat,color,clarity,shape,cut,price,listing_id\n\
        1.0,G,VS2,round,EX,5000,\"a\n\
        1.1,G,VS2,round,EX,5001,b\n\
        1.2,G,VS2,round,EX,5002,c\"\n\
        1.3,G,VS2,round,EX,5003,d\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert_eq!(listings.len(), 1);
    assert_eq!(listings[0].listing_id.as_deref(), Some("d"));
    assert_eq!((counts.rows, counts.swallowed_lines, counts.rejected.unparseable), (4, 2, 3));
    assert!(counts.examples[0].starts_with("lines 2-4: unparseable: one record over 3 lines"));
    // The same in the `diamonds` layout, and a quote never closed runs to the end.
    let text = "carat,cut,color,clarity,depth,table,price,x,y,z\n\
        0.5,Ideal,E,VS1,61.5,55,1800,5.1,5.12,3.14\n\
        0.5,\"Ideal,E,VS1,61.5,55,1801,5.1,5.12,3.14\n\
        0.5,Ideal,E,VS1,61.5,55,1802,5.1,5.12,3.14\n";
    let (listings, counts) = read_listings(text, InputFormat::Diamonds);
    assert_eq!(listings.len(), 1);
    assert_eq!((counts.rows, counts.swallowed_lines, counts.rejected.unparseable), (3, 1, 2));
    // A quote opened on the last line takes in the file's last line end: one line, whose
    // value holds a line break (`z` is read by no rule, so only this rule refuses it).
    let text = "carat,cut,color,clarity,depth,table,price,x,y,z\n\
        0.5,Ideal,E,VS1,61.5,55,1800,5.1,5.12,3.14\n\
        0.5,Ideal,E,VS1,61.5,55,1801,5.1,5.12,\"3.14\n";
    let (listings, counts) = read_listings(text, InputFormat::Diamonds);
    assert_eq!(listings.len(), 1);
    assert_eq!((counts.rows, counts.swallowed_lines, counts.rejected.unparseable), (2, 0, 1));
    assert_eq!(
        counts.examples,
        [
            "line 3: unparseable: a quoted value holds a line break (a quote still open at the end of the file?); no column may hold a line break"
        ]
    );
}

#[test]
fn a_header_over_several_lines_is_a_header_problem_and_its_lines_count() {
    let text = "carat,color,clarity,shape,cut,price,\"note\n1.0,G,VS2,round,EX,5000,x\n1.1,G,VS2,round,EX,5001,y\"\n1.2,G,VS2,round,EX,5002,z\n";
    let (listings, counts) = read_listings(text, InputFormat::Native);
    assert!(listings.is_empty());
    assert_eq!((counts.rows, counts.swallowed_lines, counts.rejected.unparseable), (3, 2, 3));
    assert_eq!(
        counts.header_problem.as_deref(),
        Some(
            "header: one record over 3 lines (a stray quote?): a quoted value holds a line break; no column may hold a line break, so each line counts as an unparseable row"
        )
    );
}

proptest! {
    /// Whatever the quotes do, every line of the input is counted once: as a listing, or
    /// as a rejected row (a record over several lines once per line, with one example).
    #[test]
    fn every_line_counts_once_whatever_the_quotes_do(
        tokens in proptest::collection::vec(
            proptest::sample::select(vec!["1.0", "G", "VS2", "round", "EX", "5000", ",", "\"", "\n"]),
            0..120,
        ),
        chunk in 1usize..17,
    ) {
        let text = format!("carat,color,clarity,shape,cut,price\n{}", tokens.concat());
        let (listings, counts) = read_listings(&text, InputFormat::Native);
        let mut reader = ListingReader::new(
            std::io::BufReader::with_capacity(chunk, text.as_bytes()),
            InputFormat::Native,
        )
        .expect("memory");
        let chunked: Vec<_> = reader.by_ref().map(|l| l.expect("memory")).collect();
        prop_assert_eq!(&chunked, &listings);
        prop_assert_eq!(&reader.into_counts(), &counts);
        prop_assert_eq!(counts.rows, counts.accepted + counts.rejected.total());
        prop_assert_eq!(listings.len() as u64, counts.accepted);
        let records = counts.rejected.total() - counts.swallowed_lines;
        prop_assert_eq!(counts.examples.len() as u64, records.min(MAX_EXAMPLES as u64));
        // Every line with something besides quotes on it is a row (a line of quotes alone
        // may be an empty field, a blank line), and no row is made up.
        let lines: Vec<&str> = text.lines().skip(1).collect();
        let filled = lines.iter().filter(|line| line.chars().any(|c| c != '"')).count();
        prop_assert!(counts.rows >= filled as u64, "{counts:?}");
        prop_assert!(counts.rows <= lines.len() as u64, "{counts:?}");
    }
}
