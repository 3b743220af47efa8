//! JSON-RPC method dispatch per era. 2026-07-28: `server/discover`, `tools/list`,
//! `tools/call`. Legacy (2025): `initialize`, `ping`, `tools/list`, `tools/call`. Both:
//! the resources, prompts and completion methods ([`primitives`]). Everything else is
//! -32601.

use std::{
    fmt::Write as _,
    sync::{Arc, LazyLock},
};

use datasets::History;
use jsonrpc::{Era, ErrorObject, Params, SUPPORTED_VERSIONS, ToolCall};
use serde_json::{Map, Value, json, value::RawValue};

use crate::{
    SERVER_NAME, SERVER_VERSION,
    catalog::{Tool, live_tool_list},
    completion,
    mcp::{CallOutcome, ToolCalled},
    memo::{self, Members, written},
    price::{Answered, Links, Output},
    prompts, resources,
    text::Text,
    twin::Twins,
};

#[cfg(test)]
mod tests;

/// Cache lifetime of discovery, the lists (tools, resources, templates, prompts) and the
/// reads that do not change while the server runs: 24 hours.
pub(crate) const TTL_MS: u64 = 86_400_000;
/// The `cacheScope` sent beside every `ttlMs`: nothing here differs between clients.
pub(crate) const CACHE_SCOPE: &str = "public";

/// Every 2026-07-28 method this server answers, for -32601 messages.
pub(crate) const METHODS: &[&str] = &[
    "server/discover",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
];

/// Every legacy (2025) method this server answers, for -32601 messages.
pub(crate) const LEGACY_METHODS: &[&str] = &[
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "prompts/list",
    "prompts/get",
    "completion/complete",
];

/// The capabilities of discover, `initialize` and the manifest: no `listChanged` and no
/// `subscribe`, since the lists never change while the server runs.
pub(crate) fn capabilities() -> Value {
    json!({ "tools": {}, "resources": {}, "prompts": {}, "completions": {} })
}

/// The `instructions` of discover and initialize.
pub(crate) const INSTRUCTIONS: &str = "Diamond pricing data. get_diamond_price quotes one \
stone (carat 0.3-6.0, colour D-M, clarity FL-SI2, optional shape and L/W ratio) with the \
10th-90th percentile range of comparable asks; check_asking_price weighs an asking price \
against that range (percentile, discount, verdict); get_dcx_index returns the composite index, its trends and basket; get_market_depth returns \
observed-offer counts. Prices are model-based benchmarks from a daily snapshot (see as_of), \
not offers. Bad arguments come back as isError results that say what is allowed. \
Resources: the live feeds (dcx://feeds/matrix.json, ...), a feed of a past day \
(dcx://history/{date}/{feed}) and the methodology and API documents; prompts price_stone and \
fair_asking_price say which tools to call.";

/// The result of `server/discover`, the same for every request: written once per process.
static DISCOVERY: LazyLock<Members> = LazyLock::new(|| {
    memo::members(json!({
        "supportedVersions": SUPPORTED_VERSIONS,
        "capabilities": capabilities(),
        "ttlMs": TTL_MS,
        "cacheScope": CACHE_SCOPE,
        "instructions": INSTRUCTIONS,
    }))
});

/// A method's result before [`jsonrpc::Complete`] (or [`jsonrpc::LegacyResult`]) wraps
/// it, whether it is cacheable (discovery and tool lists are: public, 24 hours), and the
/// era it is sent under (a legacy `initialize` answers with the version it negotiated).
pub(crate) struct Answer {
    pub(crate) result: Payload,
    pub(crate) cacheable: bool,
    pub(crate) era: Era,
}

/// A method's own result fields.
#[derive(Debug)]
pub(crate) enum Payload {
    /// `initialize`, a prompt, a completion: built as JSON values.
    Fields(Map<String, Value>),
    /// A result of one member written once and copied per call (the tool list's `tools`,
    /// written per snapshot; the other lists; a resource's `contents`), and the lifetime
    /// its cache hints give (2026-07-28 only).
    Kept { key: &'static str, value: Arc<RawValue>, ttl_ms: Option<u64> },
    /// A result the same for every request, its members written once per process
    /// (`server/discover`).
    Members(&'static Members),
    /// The legacy `ping`: `{}` and nothing else (no `_meta`).
    Empty,
    /// A `tools/call` result, written straight from its parts: the hot path.
    Call(CallResult),
}

/// The result of `tools/call`: the readable text, the JSON text (the `structuredContent`
/// on success, else the argument errors), and whether it succeeded; [`super::wire`]
/// writes it.
#[derive(Debug)]
pub(crate) struct CallResult {
    /// The tool called.
    pub(super) tool: Tool,
    /// The readable text item and the JSON text: the tool's result on success, else the
    /// argument errors as text and as a JSON object.
    pub(super) output: Answered,
    /// Whether the JSON text is also the `structuredContent` (true exactly on success).
    pub(super) is_structured: bool,
}

fn object(value: Value) -> Payload {
    match value {
        Value::Object(map) => Payload::Fields(map),
        _ => Payload::Fields(Map::new()),
    }
}

/// Answers one validated request of `era`.
pub(crate) fn dispatch(
    era: Era,
    method: &str,
    params: &Params<'_>,
    history: &Arc<History>,
    links: &Links,
) -> Result<Answer, ErrorObject> {
    match era {
        Era::Modern => dispatch_modern(method, params, history, links),
        Era::Legacy(version) => dispatch_legacy(version, method, params, history, links),
    }
}

fn dispatch_modern(
    method: &str,
    params: &Params<'_>,
    history: &Arc<History>,
    links: &Links,
) -> Result<Answer, ErrorObject> {
    let answer = |result, cacheable| Answer { result, cacheable, era: Era::Modern };
    match method {
        "server/discover" => Ok(answer(Payload::Members(&DISCOVERY), true)),
        "tools/list" => {
            check_cursor("tools/list", params)?;
            let tools = live_tool_list(history.live());
            Ok(answer(Payload::Kept { key: "tools", value: tools, ttl_ms: Some(TTL_MS) }, true))
        }
        "tools/call" => {
            call(params, history, links).map(|result| answer(Payload::Call(result), false))
        }
        // The legacy handshake; 2026-07-28 removed it (its conformance suite wants -32601).
        "initialize" => Err(ErrorObject::new(
            jsonrpc::ErrorCode::METHOD_NOT_FOUND,
            "initialize is not a 2026-07-28 method; this server offers server/discover, \
             tools/list, tools/call to 2026-07-28 requests, and answers initialize when it \
             comes without params._meta and without the 2026-07-28 MCP-Protocol-Version \
             header (the 2025 handshake)",
        )),
        other => primitives(Era::Modern, other, params, history)
            .unwrap_or_else(|| Err(ErrorObject::method_not_found(other, METHODS))),
    }
}

/// The 2025-era methods. Results carry the same fields without the 2026-only
/// `resultType`, `ttlMs` and `cacheScope`.
fn dispatch_legacy(
    version: &'static str,
    method: &str,
    params: &Params<'_>,
    history: &Arc<History>,
    links: &Links,
) -> Result<Answer, ErrorObject> {
    let answer = |result, cacheable| Answer { result, cacheable, era: Era::Legacy(version) };
    match method {
        "initialize" => {
            let negotiated = jsonrpc::negotiate(params)?;
            Ok(Answer {
                result: object(json!({
                    "protocolVersion": negotiated,
                    "capabilities": capabilities(),
                    "serverInfo": { "name": SERVER_NAME, "version": SERVER_VERSION },
                    "instructions": INSTRUCTIONS,
                })),
                cacheable: false,
                era: Era::Legacy(negotiated),
            })
        }
        "ping" => Ok(answer(Payload::Empty, false)),
        "tools/list" => {
            check_cursor("tools/list", params)?;
            let tools = live_tool_list(history.live());
            Ok(answer(Payload::Kept { key: "tools", value: tools, ttl_ms: None }, true))
        }
        "tools/call" => {
            call(params, history, links).map(|result| answer(Payload::Call(result), false))
        }
        other => primitives(Era::Legacy(version), other, params, history)
            .unwrap_or_else(|| Err(ErrorObject::method_not_found(other, LEGACY_METHODS))),
    }
}

/// The resources, prompts and completion methods, the same in both eras but for the
/// 2026-only cache hints (`ttlMs`, `cacheScope`) on the lists and on `resources/read`.
/// `None` for any other method.
fn primitives(
    era: Era,
    method: &str,
    params: &Params<'_>,
    history: &Arc<History>,
) -> Option<Result<Answer, ErrorObject>> {
    // A result kept as JSON, with the cache hints of a `ttl` lifetime when `era` is
    // 2026-07-28, and the HTTP cache header when that lifetime is the day of the lists.
    let kept = |key: &'static str, value: Arc<RawValue>, ttl: u64| {
        let ttl_ms = matches!(era, Era::Modern).then_some(ttl);
        Answer { result: Payload::Kept { key, value, ttl_ms }, cacheable: ttl == TTL_MS, era }
    };
    // The lists name nothing of the day's data: written once per process.
    static LISTS: LazyLock<[Arc<RawValue>; 3]> = LazyLock::new(|| {
        [resources::list(), resources::templates(), prompts::list()].map(|items| written(&items))
    });
    let list = |key: &'static str, at: usize| -> Result<Answer, ErrorObject> {
        check_cursor(method, params)?;
        Ok(kept(key, Arc::clone(&LISTS[at]), TTL_MS))
    };
    let built = |fields| Answer { result: Payload::Fields(fields), cacheable: false, era };
    Some(match method {
        "resources/list" => list("resources", 0),
        "resources/templates/list" => list("resourceTemplates", 1),
        "prompts/list" => list("prompts", 2),
        "resources/read" => match params.get("uri") {
            Some(Value::String(uri)) => resources::read(era, uri, history).map(|read| {
                let ttl = if read.live { resources::LIVE_TTL_MS } else { TTL_MS };
                kept("contents", read.contents, ttl)
            }),
            _ => Err(ErrorObject::invalid_params("resources/read needs params.uri, a string")),
        },
        "prompts/get" => prompts::get(params).map(built),
        "completion/complete" => completion::complete(params, history).map(built),
        _ => return None,
    })
}

/// Every list returns all of its items in one page, so any cursor is one it never issued.
fn check_cursor(method: &str, params: &Params<'_>) -> Result<(), ErrorObject> {
    let item = match method {
        "resources/list" => "resource",
        "resources/templates/list" => "resource template",
        "prompts/list" => "prompt",
        _ => "tool",
    };
    match params.get("cursor") {
        Some(cursor) => Err(ErrorObject::invalid_params(format!(
            "unknown cursor {}; {method} returns every {item} in one page and issues no cursors",
            words::clip(&cursor.to_string()),
        ))),
        None => Ok(()),
    }
}

/// `tools/call`: malformed params or an unknown tool are -32602; bad arguments are an
/// `isError` result whose text names each argument and what is allowed, followed by the
/// error object as JSON text (no `structuredContent`, which would have to match the
/// tool's `outputSchema`).
#[inline(always)]
fn call(
    params: &Params<'_>,
    history: &Arc<History>,
    links: &Links,
) -> Result<CallResult, ErrorObject> {
    let call = ToolCall::from_params(params)?;
    let Some(tool) = Tool::from_name(call.name) else {
        let offered: Vec<&str> = Tool::ALL.iter().map(|t| t.name()).collect();
        return Err(ErrorObject::invalid_params(format!(
            "unknown tool {}; this server offers {}",
            words::quoted(call.name),
            offered.join(", ")
        )));
    };
    Ok(match tool.call(history, call.arguments, links) {
        Ok(output) => CallResult { tool, output, is_structured: true },
        Err(errors) => {
            let mut twins = Twins::new();
            twins.serialized(&errors.to_json()).expect("a JSON value serializes");
            let mut text = Text::with_capacity(256);
            // Writing into a Vec cannot fail.
            let _ = write!(text, "Invalid arguments for {}: {errors}", tool.name());
            let output = Answered::Written(Output::written(text, twins));
            CallResult { tool, output, is_structured: false }
        }
    })
}

/// What a `tools/call` request came to, for [`ToolCalled`] reports: the tool and whether
/// it answered, refused its arguments (an `isError` result), or was never called
/// (malformed params, unknown tool). `None` for any other method.
pub(crate) fn called(
    method: &str,
    params: &Params<'_>,
    result: &Result<Answer, ErrorObject>,
) -> Option<ToolCalled> {
    if method != "tools/call" {
        return None;
    }
    Some(match result {
        Ok(Answer { result: Payload::Call(call), .. }) => ToolCalled {
            tool: Some(call.tool),
            outcome: match call.is_structured {
                true => CallOutcome::Ok,
                false => CallOutcome::InvalidArguments,
            },
        },
        _ => ToolCalled {
            tool: ToolCall::from_params(params).ok().and_then(|call| Tool::from_name(call.name)),
            outcome: CallOutcome::Rejected,
        },
    })
}
