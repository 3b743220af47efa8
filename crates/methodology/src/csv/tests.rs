//! Tests of the hand-written CSV reader.

use super::{Record, records};

#[track_caller]
fn check(text: &str, expect: &[(usize, Result<&[&str], &str>)]) {
    let actual = records(text);
    let expect: Vec<Record> = expect
        .iter()
        .map(|(line, fields)| Record {
            line: *line,
            fields: fields
                .map(|f| f.iter().map(|s| s.to_string()).collect())
                .map_err(|e| e.to_owned()),
        })
        .collect();
    assert_eq!(actual, expect);
}

#[test]
fn plain_fields_and_line_ends() {
    check(
        "a,b,c\n1,2,3\r\n\n4,,6",
        &[(1, Ok(&["a", "b", "c"])), (2, Ok(&["1", "2", "3"])), (4, Ok(&["4", "", "6"]))],
    );
}

#[test]
fn quoted_fields_with_commas_quotes_and_newlines() {
    check(
        "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\nnext,\"\"\n",
        &[(1, Ok(&["a,b", "say \"hi\"", "two\nlines"])), (3, Ok(&["next", ""]))],
    );
}

#[test]
fn byte_order_mark_is_skipped() {
    check("\u{feff}carat\n1\n", &[(1, Ok(&["carat"])), (2, Ok(&["1"]))]);
}

#[test]
fn broken_quotes_are_errors_and_reading_goes_on() {
    check(
        "\"ok\"x,1\nbad\"quote,2\n3,4\n\"open",
        &[
            (1, Err("text after a closing quote")),
            (2, Err("quote inside an unquoted field")),
            (3, Ok(&["3", "4"])),
            (4, Err("unterminated quoted field")),
        ],
    );
}
