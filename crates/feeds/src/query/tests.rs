//! Unit tests for `crate::query`: form decoding.

use crate::query::pairs;

#[track_caller]
fn check(query: &str, expect: &[(&str, &str)]) {
    let actual = pairs(query);
    let actual: Vec<(&str, &str)> = actual.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
    assert_eq!(actual, expect);
}

#[test]
fn decodes_pairs_in_order() {
    check("shape=oval&carat=1.23", &[("shape", "oval"), ("carat", "1.23")]);
    check("a=1&&b", &[("a", "1"), ("b", "")]);
    check("", &[]);
}

#[test]
fn decodes_escapes_and_plus() {
    check("color=%47&x=a+b%20c", &[("color", "G"), ("x", "a b c")]);
    check("x=%e2%82%ac", &[("x", "\u{20ac}")]);
}

#[test]
fn keeps_broken_escapes_literally() {
    check("x=%&y=%4&z=%zz&w=100%", &[("x", "%"), ("y", "%4"), ("z", "%zz"), ("w", "100%")]);
    check("x=%ff", &[("x", "\u{fffd}")]);
}
