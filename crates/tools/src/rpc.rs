//! JSON-RPC method dispatch: `initialize`, `server/discover`, `tools/list`, `tools/call`;
//! everything else is -32601.

use datasets::History;
use jsonrpc::{ErrorObject, PROTOCOL_VERSION, SUPPORTED_VERSIONS, ToolCall};
use serde_json::{Map, Value, json};

use crate::{
    SERVER_NAME, SERVER_VERSION,
    catalog::{Tool, tool_definitions},
    price::Links,
};

#[cfg(test)]
mod tests;

/// Cache lifetime of discovery and tool-list results: 24 hours.
pub(crate) const TTL_MS: u64 = 86_400_000;

/// Every method this server answers, for -32601 messages.
pub(crate) const METHODS: &[&str] = &["server/discover", "tools/list", "tools/call", "initialize"];

/// The `instructions` of discover and initialize.
pub(crate) const INSTRUCTIONS: &str = "Diamond pricing data. get_diamond_price quotes one \
stone (carat 0.3-6.0, colour D-M, clarity FL-SI2, optional shape and L/W ratio); \
get_dcx_index returns the composite index, its trends and basket; get_market_depth returns \
observed-offer counts. Prices are model-based benchmarks from a daily snapshot (see as_of), \
not offers. Bad arguments come back as isError results that say what is allowed.";

/// A method's result before `jsonrpc::complete`, and whether it is cacheable (discovery
/// and tool lists are: public, 24 hours).
pub(crate) struct Answer {
    pub(crate) result: Map<String, Value>,
    pub(crate) cacheable: bool,
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// Answers one validated request.
pub(crate) fn dispatch(
    method: &str,
    params: &Map<String, Value>,
    history: &History,
    links: &Links,
) -> Result<Answer, ErrorObject> {
    match method {
        "server/discover" => Ok(Answer {
            result: object(json!({
                "supportedVersions": SUPPORTED_VERSIONS,
                "capabilities": { "tools": {} },
                "ttlMs": TTL_MS,
                "cacheScope": "public",
                "instructions": INSTRUCTIONS,
            })),
            cacheable: true,
        }),
        // Not a 2026-07-28 method; answered because the seed lists it (see docs/mcp.md).
        "initialize" => Ok(Answer {
            result: object(json!({
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": { "tools": {} },
                "serverInfo": { "name": SERVER_NAME, "version": SERVER_VERSION },
                "instructions": INSTRUCTIONS,
            })),
            cacheable: false,
        }),
        "tools/list" => {
            if let Some(cursor) = params.get("cursor") {
                return Err(ErrorObject::invalid_params(format!(
                    "unknown cursor {cursor}; tools/list returns every tool in one page and issues no cursors"
                )));
            }
            Ok(Answer {
                result: object(json!({
                    "tools": tool_definitions(),
                    "ttlMs": TTL_MS,
                    "cacheScope": "public",
                })),
                cacheable: true,
            })
        }
        "tools/call" => {
            call(params, history, links).map(|result| Answer { result, cacheable: false })
        }
        other => Err(ErrorObject::method_not_found(other, METHODS)),
    }
}

fn text(text: String) -> Value {
    json!({ "type": "text", "text": text })
}

/// `tools/call`: malformed params or an unknown tool are -32602; bad arguments are an
/// `isError` result whose text names each argument and what is allowed, followed by the
/// error object as JSON text (no `structuredContent`, which would have to match the
/// tool's `outputSchema`).
fn call(
    params: &Map<String, Value>,
    history: &History,
    links: &Links,
) -> Result<Map<String, Value>, ErrorObject> {
    let call = ToolCall::from_params(params)?;
    let Some(tool) = Tool::from_name(&call.name) else {
        let offered: Vec<&str> = Tool::ALL.iter().map(|t| t.name()).collect();
        return Err(ErrorObject::invalid_params(format!(
            "unknown tool {}; this server offers {}",
            Value::from(call.name.as_str()),
            offered.join(", ")
        )));
    };
    Ok(match tool.call(history, &call.arguments, links) {
        Ok(output) => object(json!({
            "content": [text(output.text), text(output.structured.to_string())],
            "structuredContent": output.structured,
            "isError": false,
        })),
        Err(errors) => object(json!({
            "content": [
                text(format!("Invalid arguments for {}: {errors}", tool.name())),
                text(errors.to_json().to_string()),
            ],
            "isError": true,
        })),
    })
}
