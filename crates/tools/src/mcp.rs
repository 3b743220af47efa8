//! The MCP answer without a transport. [`Mcp`]: one message (its body and, over HTTP,
//! its headers) in, one [`Reply`] out, in either protocol era; the HTTP endpoint and the
//! stdio transport (`dcx mcp`) both answer through it. [`dispatch`] answers each method,
//! `wire` writes the response bytes. Nothing here knows HTTP.

use std::sync::Arc;

use jsonrpc::{Classified, Era, HeaderView, RequestId, ServerInfo, Transport};

use crate::{
    Clock, SERVER_NAME, SERVER_VERSION, Tool,
    args::ARGUMENT_FILTER,
    price::{Answered, Links},
};

pub(crate) mod dispatch;
pub(crate) mod wire;

/// What to send back for one message.
#[derive(Debug, PartialEq)]
pub enum Reply {
    /// A notification: nothing (HTTP: `202 Accepted` with no body).
    Accepted,
    /// A JSON-RPC response.
    Message(Message),
}

/// One JSON-RPC response and how HTTP sends it.
#[derive(Debug, PartialEq)]
pub struct Message {
    /// The HTTP status: 200 for results; for 2026-07-28 errors the status of their code
    /// (400, 404, 200); for legacy errors 400 only when the transport rules say so
    /// (parse, envelope, version header), else 200, as 2025-era clients expect.
    pub status: u16,
    /// The response body: one line of JSON, no newline.
    pub body: Vec<u8>,
    /// The protocol version it is sent under (the `MCP-Protocol-Version` response header).
    pub version: &'static str,
    /// Whether HTTP may mark it `Cache-Control: public, max-age=86400`.
    pub cacheable: bool,
}

/// One `tools/call` answered, as reported to a [`ToolCallHook`] (metrics count them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ToolCalled {
    /// The tool named; `None` when the call named none this server offers.
    pub tool: Option<Tool>,
    /// How it went.
    pub outcome: CallOutcome,
}

/// How a `tools/call` went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallOutcome {
    /// The tool answered (`isError: false`).
    Ok,
    /// The tool refused its arguments (`isError: true`, saying what is allowed).
    InvalidArguments,
    /// No tool ran: malformed params or an unknown tool (a JSON-RPC error, -32602).
    Rejected,
}

impl CallOutcome {
    /// Every outcome.
    pub const ALL: [CallOutcome; 3] =
        [CallOutcome::Ok, CallOutcome::InvalidArguments, CallOutcome::Rejected];

    /// The outcome as a short, stable label: `ok`, `invalid_arguments`, `rejected`.
    pub fn label(self) -> &'static str {
        match self {
            CallOutcome::Ok => "ok",
            CallOutcome::InvalidArguments => "invalid_arguments",
            CallOutcome::Rejected => "rejected",
        }
    }
}

/// Called with every `tools/call` answered; it runs on the request path, so it must be
/// quick (metrics bump a counter).
pub type ToolCallHook = Arc<dyn Fn(&ToolCalled) + Send + Sync>;

/// The MCP service without a transport: the data, the links and the identity results
/// carry. Cheap to share; holds no per-client state.
pub struct Mcp {
    live: Arc<datasets::Live>,
    links: Links,
    clock: Clock,
    meta: wire::Meta,
    on_tool_call: Option<ToolCallHook>,
}

impl Mcp {
    /// A service over `live`; `source` is `_meta.source` of every result (the public host
    /// over HTTP).
    pub fn new(live: Arc<datasets::Live>, links: Links, clock: Clock, source: String) -> Mcp {
        let meta = wire::Meta::new(source, ServerInfo::new(SERVER_NAME, SERVER_VERSION));
        Mcp { live, links, clock, meta, on_tool_call: None }
    }

    /// Reports every `tools/call` answered to `hook`.
    pub fn with_tool_call_hook(mut self, hook: Option<ToolCallHook>) -> Mcp {
        self.on_tool_call = hook;
        self
    }

    /// The data served.
    pub fn live(&self) -> &Arc<datasets::Live> {
        &self.live
    }

    /// Answers one message: classified by era ([`jsonrpc::classify_any_era_filtered`],
    /// holding only the arguments some tool reads), dispatched, written. `headers` is
    /// empty for stdio.
    pub fn answer(&self, transport: Transport, headers: &HeaderView<'_>, body: &[u8]) -> Reply {
        let classified =
            jsonrpc::classify_any_era_filtered(transport, headers, body, ARGUMENT_FILTER);
        let (id, era, method, params) = match classified {
            Classified::Modern(request) => {
                (request.id, Era::Modern, request.method, request.params)
            }
            Classified::Legacy(request) => {
                (request.id, Era::Legacy(request.version), request.method, request.params)
            }
            Classified::Notification { .. } => return Reply::Accepted,
            Classified::Rejected(response, era) => {
                return Reply::Message(Message {
                    status: response.http_status(),
                    body: response.to_json(),
                    version: era.version(),
                    cacheable: false,
                });
            }
        };
        let history = self.live.history();
        let result = dispatch::dispatch(era, &method, &params, &history, &self.links);
        if let Some(hook) = &self.on_tool_call
            && let Some(called) = dispatch::called(&method, &params, &result)
        {
            hook(&called);
        }
        match result {
            Ok(answer) => {
                let body = self.write(&id, &answer);
                let (version, cacheable) = (answer.era.version(), answer.cacheable);
                if let dispatch::Payload::Call(call) = answer.result
                    && let Answered::Written(output) = call.output
                {
                    crate::twin::recycle(output.structured, output.structured_escaped);
                }
                Reply::Message(Message { status: 200, body, version, cacheable })
            }
            Err(error) => {
                let status = match era {
                    Era::Modern => error.code.http_status(),
                    Era::Legacy(_) => 200,
                };
                let response = jsonrpc::Response::err(Some(id), error);
                Reply::Message(Message {
                    status,
                    body: response.to_json(),
                    version: era.version(),
                    cacheable: false,
                })
            }
        }
    }

    /// The success response of `answer`, written for its era.
    #[inline(always)]
    fn write(&self, id: &RequestId, answer: &dispatch::Answer) -> Vec<u8> {
        wire::success(id, answer.era, &self.meta, (self.clock)(), &answer.result)
    }
}
