//! The tool schemas checked as an MCP client checks them: JSON Schema draft 2020-12, by
//! the `jsonschema` crate. Each schema may use only the keywords in [`KNOWN`], so that a
//! misspelt keyword, which a validator would pass over, fails loudly instead.

use serde_json::Value;

/// The keywords the tool schemas use.
const KNOWN: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "propertyNames",
    "enum",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "items",
    "const",
    "allOf",
    "if",
    "then",
    "description",
    "default",
    "format",
    "title",
];

/// Every violation of `schema` by `value`, each as `<pointer>: <problem>`.
pub(crate) fn validate(schema: &Value, value: &Value) -> Vec<String> {
    known_keywords_only(schema, "");
    let validator = jsonschema::draft202012::new(schema)
        .unwrap_or_else(|err| panic!("not a draft 2020-12 schema ({err}): {schema}"));
    validator.iter_errors(value).map(|err| format!("{}: {err}", err.instance_path())).collect()
}

/// Panics at the first keyword of `schema` or of a schema inside it that is not [`KNOWN`].
fn known_keywords_only(schema: &Value, at: &str) {
    let schema = schema.as_object().unwrap_or_else(|| panic!("a schema is an object at {at:?}"));
    for (key, value) in schema {
        assert!(KNOWN.contains(&key.as_str()), "unsupported keyword {key:?} at {at:?}");
        let here = format!("{at}/{key}");
        match (key.as_str(), value) {
            ("properties", Value::Object(members)) => {
                for (name, sub) in members {
                    known_keywords_only(sub, &format!("{here}/{name}"));
                }
            }
            ("allOf", Value::Array(subs)) => {
                for (i, sub) in subs.iter().enumerate() {
                    known_keywords_only(sub, &format!("{here}/{i}"));
                }
            }
            (
                "additionalProperties" | "propertyNames" | "items" | "if" | "then",
                Value::Object(_),
            ) => known_keywords_only(value, &here),
            _ => {}
        }
    }
}

#[test]
fn a_violation_is_reported_where_it_is_and_a_misspelt_keyword_fails() {
    use serde_json::json;
    let schema = json!({
        "type": "object",
        "properties": { "a": { "type": "integer", "minimum": 0 }, "b": { "enum": ["x"] } },
        "required": ["a"],
        "additionalProperties": false,
    });
    assert!(validate(&schema, &json!({"a": 1, "b": "x"})).is_empty());
    let errors = validate(&schema, &json!({"a": -1, "c": 1}));
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().any(|e| e.starts_with("/a: ")), "{errors:?}");
    // `jsonschema` itself passes over an unknown keyword: only the walk refuses it.
    let misspelt = json!({"properties": { "a": { "maximun": 1 } }});
    assert!(jsonschema::draft202012::new(&misspelt).is_ok());
    let refused = std::panic::catch_unwind(|| validate(&misspelt, &json!({}))).unwrap_err();
    let message = refused.downcast_ref::<String>().map_or("", String::as_str);
    assert!(message.contains("unsupported keyword \"maximun\" at \"/properties/a\""), "{message}");
}
