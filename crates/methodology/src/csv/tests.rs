//! Tests of the CSV reader, over whole buffers and over a trickle of bytes.

use std::io::{BufRead, BufReader, Read};

use proptest::prelude::*;

use super::{MAX_RECORD_BYTES, Records};

type Expected<'a> = (usize, Result<&'a [&'a str], &'a str>);

/// A record as read: (first line, lines spanned, line breaks in its values, fields or
/// error).
type Parsed = (usize, usize, usize, Result<Vec<String>, String>);

/// Every record of `input`.
fn records(input: impl BufRead) -> Vec<Parsed> {
    let mut records = Records::new(input).expect("in memory");
    let mut out = Vec::new();
    while let Some(r) = records.next_record().expect("in memory") {
        out.push((r.line, r.lines, r.breaks, r.fields.map(<[String]>::to_vec)));
    }
    out
}

/// A reader that hands out one byte per read: every record crosses buffer boundaries.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((&first, rest)) = self.0.split_first() else { return Ok(0) };
        if buf.is_empty() {
            return Ok(0);
        }
        buf[0] = first;
        self.0 = rest;
        Ok(1)
    }
}

/// Every record of `input` read from a whole buffer, checked to read the same byte by
/// byte.
#[track_caller]
fn both_ways(input: &[u8]) -> Vec<Parsed> {
    let whole = records(input);
    assert_eq!(records(BufReader::with_capacity(1, Trickle(input))), whole, "byte by byte");
    whole
}

#[track_caller]
fn check_bytes(input: &[u8], expect: &[Expected<'_>]) {
    let expect: Vec<(usize, Result<Vec<String>, String>)> = expect
        .iter()
        .map(|(line, fields)| {
            (
                *line,
                fields.map(|f| f.iter().map(|s| s.to_string()).collect()).map_err(|e| e.to_owned()),
            )
        })
        .collect();
    let got: Vec<_> =
        both_ways(input).into_iter().map(|(line, _, _, fields)| (line, fields)).collect();
    assert_eq!(got, expect);
}

#[track_caller]
fn check(text: &str, expect: &[Expected<'_>]) {
    check_bytes(text.as_bytes(), expect);
}

#[test]
fn plain_fields_and_line_ends() {
    check(
        "a,b,c\n1,2,3\r\n\n4,,6",
        &[(1, Ok(&["a", "b", "c"])), (2, Ok(&["1", "2", "3"])), (4, Ok(&["4", "", "6"]))],
    );
    check("", &[]);
    check("\n\r\n\n", &[]);
}

#[test]
fn quoted_fields_with_commas_quotes_and_newlines() {
    check(
        "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\nnext,\"\"\n",
        &[(1, Ok(&["a,b", "say \"hi\"", "two\nlines"])), (3, Ok(&["next", ""]))],
    );
    check("\"\"\"\"\n\"\n\n\",x\n", &[(1, Ok(&["\""])), (2, Ok(&["\n\n", "x"]))]);
}

#[test]
fn byte_order_mark_is_skipped() {
    check("\u{feff}carat\n1\n", &[(1, Ok(&["carat"])), (2, Ok(&["1"]))]);
    check("\u{feff}\"a,b\"\n", &[(1, Ok(&["a,b"]))]);
    check("\u{feff}", &[]);
    check("ab", &[(1, Ok(&["ab"]))]);
    // One mark is dropped, however the input arrives; blank lines after it still count.
    check("\u{feff}\u{feff}a\n", &[(1, Ok(&["\u{feff}a"]))]);
    check("\u{feff}\n\r\ncarat\n", &[(3, Ok(&["carat"]))]);
}

#[test]
fn broken_quotes_read_as_the_csv_crate_reads_them() {
    // Text after a closing quote joins the field, a quote inside an unquoted field is
    // text, and a quote still open at the end closes there: the columns judge the values.
    check(
        "\"ok\"x,1\nbad\"quote,2\n3,4\n\"open",
        &[
            (1, Ok(&["okx", "1"])),
            (2, Ok(&["bad\"quote", "2"])),
            (3, Ok(&["3", "4"])),
            (4, Ok(&["open"])),
        ],
    );
    // An open quote runs over the following lines, as far as the next quote.
    check("\"open\n1,2\n\"x,3\n4\n", &[(1, Ok(&["open\n1,2\nx", "3"])), (4, Ok(&["4"]))]);
}

#[test]
fn a_record_that_is_not_utf8_is_an_error_of_that_record_only() {
    check_bytes(
        b"a,b\n\xff\xfe,1\n2,3\n",
        &[(1, Ok(&["a", "b"])), (2, Err("the record is not valid UTF-8")), (3, Ok(&["2", "3"]))],
    );
}

#[test]
fn an_endless_record_is_not_kept_and_its_lines_still_count() {
    let lines = MAX_RECORD_BYTES / 4 + 1;
    let input = format!("a\n\"{}\"\nlast\n", "x,y\n".repeat(lines));
    let message =
        format!("record longer than {MAX_RECORD_BYTES} bytes (a quote that is never closed?)");
    let got: Vec<_> = records(input.as_bytes())
        .into_iter()
        .map(|(line, lines, _, fields)| (line, lines, fields))
        .collect();
    assert_eq!(
        got,
        vec![
            (1, 1, Ok(vec!["a".to_owned()])),
            (2, lines + 1, Err(message)),
            (lines + 3, 1, Ok(vec!["last".to_owned()])),
        ]
    );
}

/// Every record of `input` as (first line, lines spanned), whole and byte by byte.
#[track_caller]
fn check_spans(input: &str, expect: &[(usize, usize)]) {
    let spans: Vec<_> = both_ways(input.as_bytes()).iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(spans, expect);
}

#[test]
fn a_record_says_how_many_lines_it_spans() {
    // One line each, with or without a last line end, blank lines between.
    check_spans("a,b\n1,2\r\n\n3,4", &[(1, 1), (2, 1), (4, 1)]);
    // A quoted line break: two lines; a blank line inside quotes is swallowed too.
    check_spans("a\n\"x\ny\",1\n\"p\n\nq\"\nz\n", &[(1, 1), (2, 2), (4, 3), (7, 1)]);
    // A stray quote swallows every line up to the next quote.
    check_spans("h\n1,\"2\n3,4\n5,6\n7,8\"\n9\n", &[(1, 1), (2, 4), (6, 1)]);
    // A quote never closed runs to the end; a last line end adds no line.
    check_spans("h\n\"1\n2\n", &[(1, 1), (2, 2)]);
    check_spans("h\n\"1\n2", &[(1, 1), (2, 2)]);
}

#[test]
fn a_record_says_how_many_line_breaks_its_values_hold() {
    let breaks = |input: &str| -> Vec<_> {
        both_ways(input.as_bytes()).iter().map(|r| (r.1, r.2)).collect()
    };
    assert_eq!(breaks("a\nb"), [(1, 0), (1, 0)]);
    assert_eq!(breaks("a\n\"b\nc\"\n"), [(1, 0), (2, 1)]);
    // A quote still open at the end took in the last line end: one line, one break.
    assert_eq!(breaks("a\n\"b\n"), [(1, 0), (1, 1)]);
    assert_eq!(breaks("a\n\"b"), [(1, 0), (1, 0)]);
}

proptest! {
    /// Bytes made of what CSV is made of read the same whole and in chunks of any size,
    /// and the records' lines follow one another inside the input's lines.
    #[test]
    fn any_bytes_read_the_same_in_any_chunks_and_their_lines_add_up(
        bytes in proptest::collection::vec(
            proptest::sample::select(b"a1 ,\"\n\r\xef\xbb\xbf\xff".to_vec()),
            0..80,
        ),
        chunk in 1usize..17,
    ) {
        let whole = records(bytes.as_slice());
        prop_assert_eq!(&whole, &records(BufReader::with_capacity(chunk, bytes.as_slice())));
        let lines = bytes.iter().filter(|&&b| b == b'\n').count()
            + usize::from(bytes.last().is_some_and(|&b| b != b'\n'));
        let mut next = 1;
        for (line, spans, _, _) in &whole {
            prop_assert!(*line >= next && *spans >= 1, "{whole:?}");
            next = line + spans;
        }
        prop_assert!(next <= lines + 1, "{whole:?} in {lines} lines");
    }
}
