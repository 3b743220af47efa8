//! A small JSON Schema validator for the subset the tool schemas use: `type` (a name or a
//! list, `integer` included), `properties`, `required`, `additionalProperties` (boolean or
//! schema), `propertyNames`, `enum`, `const`, `minimum`, `maximum`, `exclusiveMinimum`,
//! `items`, `allOf`, `if`/`then`. Any other keyword fails loudly, so the schemas cannot
//! silently use one it ignores.

use serde_json::Value;

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
    let mut errors = Vec::new();
    check(schema, value, "", &mut errors);
    errors
}

fn type_matches(name: &str, value: &Value) -> bool {
    match name {
        "null" => value.is_null(),
        "boolean" => value.is_boolean(),
        "object" => value.is_object(),
        "array" => value.is_array(),
        "string" => value.is_string(),
        "number" => value.is_number(),
        "integer" => value.is_i64() || value.is_u64(),
        other => panic!("unknown type {other:?}"),
    }
}

fn check(schema: &Value, value: &Value, at: &str, errors: &mut Vec<String>) {
    let schema = schema.as_object().expect("a schema is an object");
    for key in schema.keys() {
        assert!(KNOWN.contains(&key.as_str()), "unsupported keyword {key:?} at {at:?}");
    }
    if let Some(types) = schema.get("type") {
        let names: Vec<&str> = match types {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().map(|t| t.as_str().unwrap()).collect(),
            other => panic!("bad type {other}"),
        };
        if !names.iter().any(|name| type_matches(name, value)) {
            errors.push(format!("{at}: {value} is not of type {types}"));
            return;
        }
    }
    if let Some(Value::Array(allowed)) = schema.get("enum")
        && !allowed.contains(value)
    {
        errors.push(format!("{at}: {value} is not one of {allowed:?}"));
    }
    if let Some(expected) = schema.get("const")
        && expected != value
    {
        errors.push(format!("{at}: {value} is not {expected}"));
    }
    if let Some(Value::Array(all)) = schema.get("allOf") {
        for sub in all {
            check(sub, value, at, errors);
        }
    }
    if let Some(condition) = schema.get("if")
        && validate(condition, value).is_empty()
        && let Some(then) = schema.get("then")
    {
        check(then, value, at, errors);
    }
    if let Some(number) = value.as_f64() {
        let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
        if bound("minimum").is_some_and(|min| number < min) {
            errors.push(format!("{at}: {number} is below the minimum"));
        }
        if bound("maximum").is_some_and(|max| number > max) {
            errors.push(format!("{at}: {number} is above the maximum"));
        }
        if bound("exclusiveMinimum").is_some_and(|min| number <= min) {
            errors.push(format!("{at}: {number} is not above the exclusive minimum"));
        }
    }
    if let (Some(items), Value::Array(values)) = (schema.get("items"), value) {
        for (i, item) in values.iter().enumerate() {
            check(items, item, &format!("{at}/{i}"), errors);
        }
    }
    let Value::Object(object) = value else { return };
    if let Some(Value::Array(required)) = schema.get("required") {
        for name in required {
            let name = name.as_str().unwrap();
            if !object.contains_key(name) {
                errors.push(format!("{at}: missing required property {name:?}"));
            }
        }
    }
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, item) in object {
        let here = format!("{at}/{name}");
        if let Some(names) = schema.get("propertyNames") {
            check(names, &Value::from(name.as_str()), &here, errors);
        }
        match properties.and_then(|p| p.get(name)) {
            Some(sub) => check(sub, item, &here, errors),
            None => match schema.get("additionalProperties") {
                Some(Value::Bool(false)) => {
                    errors.push(format!("{here}: property not allowed"));
                }
                Some(Value::Bool(true)) | None => {}
                Some(sub) => check(sub, item, &here, errors),
            },
        }
    }
}

#[test]
fn the_validator_finds_each_kind_of_violation() {
    use serde_json::json;
    let schema = json!({
        "type": "object",
        "properties": {
            "a": { "type": ["number", "null"], "minimum": 0, "maximum": 10 },
            "b": { "type": "string", "enum": ["x", "y"] },
            "c": { "type": "array", "items": { "type": "integer" } },
            "d": { "type": ["object", "null"], "propertyNames": { "enum": ["k"] }, "additionalProperties": { "type": "integer" } },
        },
        "required": ["a", "b"],
        "additionalProperties": false,
    });
    assert!(
        validate(&schema, &json!({"a": null, "b": "x", "c": [1, 2], "d": {"k": 1}})).is_empty()
    );
    assert!(validate(&schema, &json!({"a": 5, "b": "y", "d": null})).is_empty());
    let cases = [
        (json!({"b": "x"}), "missing required"),
        (json!({"a": -1, "b": "x"}), "below the minimum"),
        (json!({"a": 11, "b": "x"}), "above the maximum"),
        (json!({"a": "1", "b": "x"}), "is not of type"),
        (json!({"a": 1, "b": "z"}), "is not one of"),
        (json!({"a": 1, "b": "x", "c": [1.5]}), "/c/0"),
        (json!({"a": 1, "b": "x", "e": 1}), "property not allowed"),
        (json!({"a": 1, "b": "x", "d": {"q": 1}}), "/d/q"),
        (json!({"a": 1, "b": "x", "d": {"k": "1"}}), "/d/k"),
        (json!([]), "is not of type"),
    ];
    let conditional = json!({
        "type": "object",
        "allOf": [{
            "if": { "properties": { "s": { "const": "o" } }, "required": ["s"] },
            "then": { "properties": { "r": { "minimum": 1, "maximum": 2 } } },
        }],
    });
    assert!(validate(&conditional, &json!({"s": "o", "r": 1.5})).is_empty());
    assert!(validate(&conditional, &json!({"s": "p", "r": 3})).is_empty());
    assert!(validate(&conditional, &json!({"r": 3})).is_empty());
    assert!(validate(&conditional, &json!({"s": "o", "r": 3}))[0].contains("above the maximum"));
    for (value, expect) in cases {
        let errors = validate(&schema, &value);
        assert!(errors.iter().any(|e| e.contains(expect)), "{value}: {errors:?}");
    }
}
