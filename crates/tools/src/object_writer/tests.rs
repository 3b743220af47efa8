//! The writer's two outputs: serde_json's bytes, and exactly those bytes escaped.

use proptest::prelude::*;
use serde_json::{Value, json};

use super::{Key, ObjectWriter};

/// Writes `{"a": text, "b": number, "c": {"d": flag, "e": null}}` both ways and checks
/// the plain output against serde_json and the copy against the escaper.
fn check(text: &str, number: f64, flag: bool) -> Result<(), TestCaseError> {
    let (mut out, mut escaped) = (Vec::new(), Vec::new());
    let mut o = ObjectWriter::new(&mut out, &mut escaped);
    o.str(key!("a"), text);
    o.f64(key!("b"), number);
    o.object(key!("c"), |inner| {
        inner.bool(key!("d"), flag);
        inner.null(key!("e"));
    });
    o.finish();
    // Keys in sorted order: `json!` sorts them.
    let expected = json!({"a": text, "b": number, "c": {"d": flag, "e": Value::Null}});
    let plain = String::from_utf8(out).unwrap();
    prop_assert_eq!(&plain, &serde_json::to_string(&expected).unwrap());
    let mut reference = Vec::new();
    jsonrpc::write_str_contents(&mut reference, &plain);
    prop_assert_eq!(escaped, reference);
    Ok(())
}

#[test]
fn strings_that_need_escapes_are_escaped_twice_in_the_copy() {
    for text in
        ["", "plain", "a \"quoted\" word", "back\\slash", "line\nbreak\u{1}", "caf\u{e9} \u{1f48e}"]
    {
        check(text, 1.5, true).unwrap();
    }
    check("x", f64::NAN, false).unwrap();
}

proptest! {
    #[test]
    fn any_member_values_match_both_routes(text in any::<String>(), number in any::<f64>(), flag: bool) {
        check(&text, number, flag)?;
    }
}

#[test]
#[should_panic(expected = "key needs escaping")]
fn keys_that_need_escaping_are_refused() {
    Key::new("say \"hi\"", "", "");
}
