//! Unit tests for `crate::query`: form decoding.

use crate::query::pairs;

/// Pairs in order, escapes and `+` decoded, broken escapes kept literally.
#[test]
fn decodes_pairs_in_order() {
    for (query, expect) in [
        ("shape=oval&carat=1.23", &[("shape", "oval"), ("carat", "1.23")][..]),
        ("a=1&&b", &[("a", "1"), ("b", "")]),
        ("", &[]),
        ("color=%47&x=a+b%20c", &[("color", "G"), ("x", "a b c")]),
        ("x=%e2%82%ac", &[("x", "\u{20ac}")]),
        ("x=%&y=%4&z=%zz&w=100%", &[("x", "%"), ("y", "%4"), ("z", "%zz"), ("w", "100%")]),
        ("x=%ff", &[("x", "\u{fffd}")]),
    ] {
        let actual = pairs(query);
        let actual: Vec<(&str, &str)> =
            actual.iter().map(|(n, v)| (n.as_str(), v.as_str())).collect();
        assert_eq!(actual, expect, "{query:?}");
    }
}
