//! Unit tests for `crate::conditional`: entity-tag lists and the two preconditions.

use crate::conditional::{EntityTag, TagList, if_none_match, not_modified_since, parse_tag_list};
use crate::testing::headers;

#[track_caller]
fn check(line: &str, expect: Option<&[(bool, &str)]>) {
    let expect = expect.map(|tags| {
        TagList::Tags(tags.iter().map(|&(weak, opaque)| EntityTag { weak, opaque }).collect())
    });
    assert_eq!(parse_tag_list(line), expect, "{line:?}");
}

#[test]
fn tag_lists() {
    check(r#""abc""#, Some(&[(false, "abc")]));
    check(r#"W/"abc""#, Some(&[(true, "abc")]));
    check(r#""a", W/"b" ,"c""#, Some(&[(false, "a"), (true, "b"), (false, "c")]));
    check(r#" , "a",, "b", "#, Some(&[(false, "a"), (false, "b")]));
    check(r#""""#, Some(&[(false, "")]));
    check(r#""a,b""#, Some(&[(false, "a,b")]));
    check("", Some(&[]));
    check("abc", None);
    check(r#""abc"#, None);
    check(r#"w/"abc""#, None);
    check(r#""a" "b""#, None);
    check(r#""a b""#, None);
    check(r#"*, "a""#, None);
    assert_eq!(parse_tag_list(" * "), Some(TagList::Any));
}

#[track_caller]
fn check_none_match(pairs: &[(&str, &str)], expect: Option<bool>) {
    assert_eq!(if_none_match(&headers(pairs), &["v1", "v1-gz"]), expect, "{pairs:?}");
}

#[test]
fn none_match_uses_weak_comparison() {
    check_none_match(&[], None);
    check_none_match(&[("if-none-match", r#""v1""#)], Some(true));
    check_none_match(&[("if-none-match", r#""v1-gz""#)], Some(true));
    check_none_match(&[("if-none-match", r#"W/"v1""#)], Some(true));
    check_none_match(&[("if-none-match", r#""v0", "v1""#)], Some(true));
    check_none_match(&[("if-none-match", "*")], Some(true));
    check_none_match(&[("if-none-match", r#""v0""#), ("if-none-match", r#""v1""#)], Some(true));
    check_none_match(&[("if-none-match", r#""v0""#)], Some(false));
    check_none_match(&[("if-none-match", r#""V1""#)], Some(false));
    check_none_match(&[("if-none-match", "v1")], Some(false));
    check_none_match(&[("if-none-match", "")], Some(false));
}

#[test]
fn modified_since_compares_seconds() {
    let at = |date: &str| hyper::header::HeaderValue::from_str(date).unwrap();
    let last_modified = 784_111_777;
    assert!(not_modified_since(Some(&at("Sun, 06 Nov 1994 08:49:37 GMT")), last_modified));
    assert!(not_modified_since(Some(&at("Sun, 06 Nov 1994 08:49:38 GMT")), last_modified));
    assert!(!not_modified_since(Some(&at("Sun, 06 Nov 1994 08:49:36 GMT")), last_modified));
    assert!(!not_modified_since(Some(&at("not a date")), last_modified));
    // The obsolete forms recipients must still read (RFC 9110 section 5.6.7).
    assert!(not_modified_since(Some(&at("Sunday, 06-Nov-94 08:49:37 GMT")), last_modified));
    assert!(not_modified_since(Some(&at("Sun Nov  6 08:49:37 1994")), last_modified));
    assert!(!not_modified_since(Some(&at("Sun, 06 Nov 1994 08:49:37 UTC")), last_modified));
    assert!(!not_modified_since(None, last_modified));
}
