//! A filtered read accepts and refuses what a whole read does, keeps the named
//! arguments once each, and counts and names the others.

use std::borrow::Cow;

use proptest::prelude::*;
use serde_json::Value;

use super::{ArgumentFilter, LeftOut};
use crate::{
    Field, Object, Params, Sent,
    envelope::{Body, read},
};

/// The filter of the tests: two names kept, three others named.
const FILTER: ArgumentFilter<'static> = ArgumentFilter { names: &["carat", "color"], named: 3 };

/// The params of a body read as an object, if it had object params.
fn params<'b, 'a>(body: &'b Body<'a>) -> Option<&'b Params<'a>> {
    match body {
        Body::Object(members) => match &members.params {
            Some(Sent::Object(params)) => Some(params),
            _ => None,
        },
        _ => None,
    }
}

/// The arguments of a body's params, if they were an object.
fn arguments<'b, 'a>(body: &'b Body<'a>) -> Option<&'b Object<'a>> {
    match &params(body)?.arguments {
        Some(Sent::Object(arguments)) => Some(arguments),
        _ => None,
    }
}

/// A filtered and a whole read accept and refuse what a `Value` read does, with the same
/// errors; what they keep outside `params.arguments` is the same, and from the bytes
/// (`from_slice`) as from the text (`from_str`).
fn filtered_agrees(text: &[u8]) -> Result<(), TestCaseError> {
    let value = serde_json::from_slice::<Value>(text);
    let whole = read(text, None);
    let filtered = read(text, Some(FILTER));
    match (&value, &whole, &filtered) {
        (Ok(_), Ok(whole), Ok(filtered)) => {
            let without_arguments = |body: &Body<'_>| {
                params(body).map(|params| {
                    let mut map = params.to_map();
                    map.remove("arguments");
                    map
                })
            };
            prop_assert_eq!(without_arguments(filtered), without_arguments(whole));
        }
        (Err(a), Err(b), Err(c)) => {
            prop_assert_eq!(a.to_string(), b.to_string());
            prop_assert_eq!(a.to_string(), c.to_string());
        }
        _ => prop_assert!(
            false,
            "value: {:?}, whole: {}, filtered: {}",
            value,
            whole.is_ok(),
            filtered.is_ok()
        ),
    }
    Ok(())
}

#[test]
fn a_filtered_read_refuses_what_a_whole_read_refuses() {
    for text in [
        r#"{"params":{"arguments":{"x":1e999}}}"#,
        r#"{"params":{"arguments":{"x":[1,]}}}"#,
        r#"{"params":{"arguments":{"carat":1}}} x"#,
        r#"{"params":{"arguments":{"x":"\ud800"}}}"#,
        r#"{"params":{"arguments":{"x" 1}}}"#,
        r#"{"params":{"arguments":"text","name":"t"},"id":1}"#,
        r#"[{"params":{"arguments":{"x":1}}}]"#,
    ] {
        filtered_agrees(text.as_bytes()).unwrap();
    }
    let deep =
        format!(r#"{{"params":{{"arguments":{{"x":{}{}}}}}}}"#, "[".repeat(200), "]".repeat(200));
    filtered_agrees(deep.as_bytes()).unwrap();
    filtered_agrees(b"{\"params\":{\"arguments\":{\"\xff\":1}}}").unwrap();
}

#[test]
fn a_filtered_read_keeps_the_named_arguments_and_counts_the_others() {
    let text = r#"{"id":1,"params":{"name":"t","arguments":{"z":1,"carat":2,"b":{"deep":[1]},
        "a":1,"b":2,"carat":3,"y":1,"x":1},"other":{"z":1}},"z":{"arguments":{"q":1}}}"#;
    let body = read(text.as_bytes(), Some(FILTER)).unwrap();
    // Elsewhere every member stays, `arguments` of other objects included.
    assert_eq!(params(&body).unwrap().get("other"), Some(&serde_json::json!({"z": 1})));
    let arguments = arguments(&body).unwrap();
    // A kept name once, with its last value.
    let kept: Vec<_> = arguments.members().collect();
    assert_eq!(kept, [("carat", &Field::Value(3.into()))]);
    let named: Vec<(&str, usize)> =
        arguments.left_out().first.iter().map(|(name, sent)| (name.as_ref(), *sent)).collect();
    assert_eq!(named, [("a", 1), ("b", 2), ("x", 1)]);
    assert_eq!(arguments.left_out().count, 6);
    assert!(!arguments.is_empty());
}

#[test]
fn left_out_names_the_smallest_names_with_their_counts() {
    let mut left_out = LeftOut::default();
    for name in ["d", "c", "a", "c", "e", "b", "a", "f"] {
        left_out.add(Cow::Borrowed(name), 2);
    }
    let named: Vec<(&str, usize)> =
        left_out.first.iter().map(|(name, sent)| (name.as_ref(), *sent)).collect();
    assert_eq!(named, [("a", 2), ("b", 1)]);
    assert_eq!(left_out.count, 8);
    let mut none = LeftOut::default();
    none.add(Cow::Borrowed("a"), 0);
    assert!(none.first.is_empty());
    assert_eq!(none.count, 1);
}

proptest! {
    #[test]
    fn any_request_like_text_reads_the_same_filtered(
        inner in r#"[\[\]{}",:0-9a-z\\ .eE+-]{0,40}"#,
    ) {
        let text = format!(r#"{{"params":{{"arguments":{{"carat":1,"x":{inner}}}}}}}"#);
        filtered_agrees(text.as_bytes())?;
    }

    #[test]
    fn left_out_keeps_the_smallest_names_as_a_sorted_count_would(
        names in prop::collection::vec("[ab]{0,3}", 0..40),
        named in 0usize..6,
    ) {
        let mut left_out = LeftOut::default();
        for name in &names {
            left_out.add(Cow::Borrowed(name.as_str()), named);
        }
        let mut counted = std::collections::BTreeMap::<&str, usize>::new();
        for name in &names {
            *counted.entry(name.as_str()).or_default() += 1;
        }
        let expected: Vec<(&str, usize)> = counted.into_iter().take(named).collect();
        let kept: Vec<(&str, usize)> =
            left_out.first.iter().map(|(name, sent)| (name.as_ref(), *sent)).collect();
        prop_assert_eq!(kept, expected);
        prop_assert_eq!(left_out.count, names.len());
    }

    #[test]
    fn only_the_filter_names_are_kept(name in "(c|ca|carat|color|colo|x|)") {
        let text = format!(r#"{{"params":{{"arguments":{{{}:1}}}}}}"#, serde_json::json!(name));
        let body = read(text.as_bytes(), Some(FILTER)).unwrap();
        let arguments = arguments(&body).unwrap();
        let kept = FILTER.names.contains(&name.as_str());
        prop_assert_eq!(arguments.members().count(), usize::from(kept));
        prop_assert_eq!(arguments.left_out().count, usize::from(!kept));
    }

    #[test]
    fn any_json_reads_the_same_filtered(value in crate::tests::json_value()) {
        let text = format!(r#"{{"params":{{"arguments":{}}},"x":{}}}"#, value, value);
        filtered_agrees(text.as_bytes())?;
    }
}

proptest! {
    #[test]
    fn sorts_after_is_the_order_of_str(name in "[ab\u{e9}]{0,4}", last in "[ab\u{e9}]{0,4}") {
        prop_assert_eq!(super::sorts_after(&name, &last), name > last);
    }
}

/// Why members nobody reads go through [`super::Skip`] rather than serde's `IgnoredAny`
/// (or a `RawValue`): serde_json skips those without parsing numbers or decoding
/// escapes, so they would accept bodies a `Value` read refuses.
#[test]
fn ignored_any_and_raw_value_accept_what_value_refuses() {
    for text in [r#"[1e999]"#, r#"["\ud800"]"#] {
        assert!(serde_json::from_str::<Value>(text).is_err(), "{text}");
        assert!(serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok(), "{text}");
        assert!(serde_json::from_str::<&serde_json::value::RawValue>(text).is_ok(), "{text}");
        assert!(read(text.as_bytes(), None).is_err(), "{text}");
    }
}
