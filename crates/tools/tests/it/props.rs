//! Properties of the in-process handler: no request body, header set or tool arguments
//! of either protocol era make it panic, every answer has one of the statuses the endpoint
//! documents, and a legacy request's errors are never 404 (2025-era clients read a 404 as
//! a lost session).

use hyper::{Method, header::HeaderValue};
use proptest::prelude::*;
use serde_json::{Value, json};
use serve::Handler;

use crate::support::{meta, service};

const STATUSES: &[u16] = &[200, 202, 400, 403, 404, 405, 406, 415];

fn post(body: Vec<u8>, headers: &[(&'static str, String)]) -> u16 {
    // A pair whose value is no valid header value is left out.
    let valid = headers.iter().filter(|(_, value)| HeaderValue::from_str(value).is_ok());
    let pairs: Vec<(&str, &str)> = std::iter::once(("content-type", "application/json"))
        .chain(valid.map(|(name, value)| (*name, value.as_str())))
        .collect();
    let request = serve::Request::new(Method::POST, "/", &pairs).with_body(body);
    service().handle(request).status().as_u16()
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| serde_json::Number::from_f64(f).map_or(Value::Null, Value::from)),
        "[a-zA-Z0-9_/.\\- ]{0,12}".prop_map(Value::from),
        prop_oneof![
            Just("tools/call"),
            Just("tools/list"),
            Just("server/discover"),
            Just("initialize"),
            Just("ping"),
            Just("notifications/initialized"),
            Just("get_diamond_price"),
            Just("get_market_depth"),
            Just("get_dcx_index"),
            Just("check_asking_price"),
            Just("asking_price_usd"),
            Just("carat"),
            Just("2026-07-28"),
            Just("2025-11-25"),
            Just("2.0")
        ]
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::from),
            prop::collection::btree_map(
                prop_oneof![
                    Just("jsonrpc".to_owned()),
                    Just("id".to_owned()),
                    Just("method".to_owned()),
                    Just("params".to_owned()),
                    Just("_meta".to_owned()),
                    Just("protocolVersion".to_owned()),
                    Just("cursor".to_owned()),
                    Just("name".to_owned()),
                    Just("arguments".to_owned()),
                    Just("carat".to_owned()),
                    Just("color".to_owned()),
                    Just("clarity".to_owned()),
                    Just("shape".to_owned()),
                    Just("shape_ratio".to_owned()),
                    "[a-z]{1,6}",
                ],
                inner,
                0..6,
            )
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_bytes_never_panic(body in prop::collection::vec(any::<u8>(), 0..256)) {
        let status = post(body, &[]);
        prop_assert!(STATUSES.contains(&status), "{status}");
    }

    #[test]
    fn arbitrary_json_never_panics(value in json_value(), method in "[a-z/]{0,16}") {
        let status = post(value.to_string().into_bytes(), &[
            ("mcp-protocol-version", "2026-07-28".to_owned()),
            ("mcp-method", method),
        ]);
        prop_assert!(STATUSES.contains(&status), "{status}");
    }

    #[test]
    fn arbitrary_legacy_json_never_panics(
        value in json_value(),
        version in prop_oneof![Just(None), Just(Some("2025-11-25")), Just(Some("2025-03-26")), Just(Some("1999-01-01"))],
    ) {
        let headers: Vec<(&'static str, String)> =
            version.map(|v| ("mcp-protocol-version", v.to_owned())).into_iter().collect();
        let status = post(value.to_string().into_bytes(), &headers);
        prop_assert!(STATUSES.contains(&status), "{status}");
    }

    #[test]
    fn legacy_requests_are_answered_with_200_unless_the_envelope_is_bad(
        method in prop_oneof![Just("initialize"), Just("ping"), Just("tools/list"), Just("tools/call"), Just("resources/list"), Just("resources/read"), Just("prompts/get"), Just("completion/complete")],
        params in prop_oneof![Just(None), json_value().prop_map(Some)],
        id in prop_oneof![any::<i64>().prop_map(Value::from), "[a-z0-9-]{0,8}".prop_map(Value::from)],
    ) {
        let mut body = json!({"jsonrpc": "2.0", "id": id, "method": method});
        let modern_meta = params.as_ref().and_then(|p| p.get("_meta")).and_then(Value::as_object)
            .is_some_and(|m| m.keys().any(|k| k.starts_with("io.modelcontextprotocol/")));
        if let Some(params) = params.clone() {
            body["params"] = params;
        }
        let status = post(body.to_string().into_bytes(), &[("mcp-protocol-version", "2025-11-25".to_owned())]);
        let params_ok = params.as_ref().is_none_or(Value::is_object);
        if params_ok && !modern_meta {
            prop_assert_eq!(status, 200);
        } else {
            prop_assert_eq!(status, 400);
        }
    }

    #[test]
    fn arbitrary_tool_arguments_are_answered(
        tool in prop_oneof![Just("get_diamond_price"), Just("get_dcx_index"), Just("get_market_depth"), Just("check_asking_price"), Just("nope")],
        arguments in json_value(),
    ) {
        let body = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": { "name": tool, "arguments": arguments, "_meta": meta() },
        });
        let status = post(body.to_string().into_bytes(), &[
            ("mcp-protocol-version", "2026-07-28".to_owned()),
            ("mcp-method", "tools/call".to_owned()),
            ("mcp-name", tool.to_owned()),
        ]);
        // A known tool answers 200 (a result or an isError result); only a malformed
        // request or an unknown tool is 400.
        let known = tool != "nope";
        prop_assert!(status == 200 || status == 400, "{status}");
        prop_assert!(!known || arguments.is_object() || status == 400);
    }

    #[test]
    fn any_price_arguments_within_the_schema_give_a_valid_result(
        carat in 0.3f64..=6.0,
        color in prop::sample::select(pricing::Color::ALL),
        clarity in prop::sample::select(pricing::Clarity::ALL),
        shape in prop::option::of(prop::sample::select(pricing::Shape::ALL)),
        ratio in prop::option::of(0.0f64..=1.0),
    ) {
        let history = std::sync::Arc::new(datasets::History::single(datasets::Snapshot::reference()));
        let schema = tools::Tool::Price.input_schema(history.live().pricing());
        let mut args = json!({"carat": carat, "color": color.as_str(), "clarity": clarity.as_str()});
        if let Some(shape) = shape {
            args["shape"] = json!(shape.as_str());
        }
        // A ratio anywhere within the bounds the schema states for this shape.
        if let Some(fraction) = ratio {
            let (min, max) = crate::schema::stated_ratio_bounds(&schema, shape.map(|s| s.as_str()));
            args["shape_ratio"] = json!((min + fraction * (max - min)).clamp(min, max));
        }
        let input_errors = crate::validator::validate(&schema, &args);
        prop_assert!(input_errors.is_empty(), "{args}: {input_errors:?}");
        let out = tools::Tool::Price
            .call(&history, &tools::Object::from(args.as_object().unwrap().clone()), &tools::price::Links::default())
            .map_err(|e| TestCaseError::fail(format!("{args}: {e}")))?;
        let errors = crate::validator::validate(&tools::Tool::Price.output_schema(), &out.structured_value());
        prop_assert!(errors.is_empty(), "{errors:?}");
    }
}
