//! Prometheus metrics: what the libraries report ([`serve::Event`]s, [`datasets::Reload`]
//! outcomes, [`tools::ToolCalled`]) and the live data, counted and written in the
//! OpenMetrics text format with `prometheus-client`, the official Rust client.
//!
//! The request path touches atomics only: each server's tables ([`ServerMetrics`]) and
//! the tool-call counters are made at start-up and bumped with relaxed atomic adds; no
//! lock, no map look-up, no allocation. Labels are bounded sets: the routes a service
//! names (and `other`), status codes, the tools (and `unknown`), the outcomes.

mod http;
mod snapshot;
#[cfg(test)]
mod tests;

use std::sync::{Arc, Mutex, MutexGuard};

use prometheus_client::{
    collector::Collector,
    encoding::DescriptorEncoder,
    metrics::{counter::Counter, family::Family, info::Info},
    registry::Registry,
};

pub use self::http::ServerMetrics;

/// The `Content-Type` of [`Metrics::render`]'s text.
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// The reload outcomes, in the order of their counters.
const RELOADS: [&str; 3] = ["accepted", "kept", "refused"];
/// The tool label of a call that named no tool this server offers.
const UNKNOWN_TOOL: &str = "unknown";

/// Every figure of one process: its servers, the reloads of its data, the tool calls,
/// the live data and the build. Made once at start-up; shared (`Arc`) by the servers'
/// event callbacks, the reload loop and the `/metrics` endpoint.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    servers: Servers,
    reloads: [Counter; RELOADS.len()],
    /// By tool (`tools::Tool::ALL`, then unknown), then outcome (`CallOutcome::ALL`).
    tool_calls: Vec<[Counter; tools::CallOutcome::ALL.len()]>,
}

impl Metrics {
    /// The figures of a process running `version` over `live`; `clock` tells the
    /// snapshot's age at each scrape.
    pub fn new(version: &'static str, live: Arc<datasets::Live>, clock: serve::Clock) -> Metrics {
        let mut registry = Registry::default();
        registry.register(
            "dcx_build",
            "The running build: its version",
            Info::new([("version", version)]),
        );

        let reload_family = Family::<[(&'static str, &'static str); 1], Counter>::default();
        let reloads =
            RELOADS.map(|outcome| reload_family.get_or_create_owned(&[("outcome", outcome)]));
        registry.register(
            "dcx_reloads",
            "Reloads of the data by outcome: accepted (a new history is live), kept (nothing \
             new), refused (the source held no valid data; the old history keeps serving)",
            reload_family,
        );

        let call_family = Family::<[(&'static str, &'static str); 2], Counter>::default();
        let tool_names = tools::Tool::ALL.map(tools::Tool::name);
        let tool_calls = tool_names
            .into_iter()
            .chain([UNKNOWN_TOOL])
            .map(|tool| {
                tools::CallOutcome::ALL.map(|outcome| {
                    call_family.get_or_create_owned(&[("tool", tool), ("outcome", outcome.label())])
                })
            })
            .collect();
        registry.register(
            "dcx_tool_calls",
            "MCP tools/call requests by tool and outcome: ok, invalid_arguments (an isError \
             result), rejected (malformed params or an unknown tool)",
            call_family,
        );

        let servers = Servers::default();
        registry.register_collector(Box::new(servers.clone()));
        registry.register_collector(Box::new(snapshot::LiveData { live, clock }));
        registry.register_collector(Box::new(DroppedLogLines));
        Metrics { registry, servers, reloads, tool_calls }
    }

    /// The tables of one HTTP server, labelled `server` (`feeds`, `tools`), whose service
    /// names `routes` ([`serve::Handler::route`] indexes them; any other path is `other`).
    /// Call it at start-up, once per server.
    pub fn server(&self, server: &'static str, routes: &[&'static str]) -> Arc<ServerMetrics> {
        let metrics = Arc::new(ServerMetrics::new(server, routes));
        self.servers.lock().push(Arc::clone(&metrics));
        metrics
    }

    /// Counts a reload's outcome.
    pub fn reload(&self, outcome: &datasets::Reload) {
        // In the order of `RELOADS`.
        let index = match outcome {
            // A rollback makes another history live: accepted.
            datasets::Reload::Accepted { .. } | datasets::Reload::RolledBack { .. } => 0,
            datasets::Reload::Kept { .. } => 1,
            datasets::Reload::Refused { .. } => 2,
        };
        self.reloads[index].inc();
    }

    /// Counts a `tools/call`.
    pub fn tool_call(&self, call: &tools::ToolCalled) {
        let unknown = self.tool_calls.len() - 1;
        let tool = call.tool.and_then(|tool| tools::Tool::ALL.iter().position(|t| *t == tool));
        // In the order of `CallOutcome::ALL`; a new outcome fails to compile here.
        let outcome = match call.outcome {
            tools::CallOutcome::Ok => 0,
            tools::CallOutcome::InvalidArguments => 1,
            tools::CallOutcome::Rejected => 2,
        };
        self.tool_calls[tool.unwrap_or(unknown)][outcome].inc();
    }

    /// [`Metrics::tool_call`] as the tool service's hook (`tools::Config::on_tool_call`).
    pub fn tool_call_hook(self: &Arc<Self>) -> tools::ToolCallHook {
        let metrics = Arc::clone(self);
        Arc::new(move |call| metrics.tool_call(call))
    }

    /// Every figure now, in the OpenMetrics text format ([`CONTENT_TYPE`]), ending with
    /// `# EOF`.
    pub fn render(&self) -> Result<String, std::fmt::Error> {
        let mut text = String::with_capacity(16 * 1024);
        prometheus_client::encoding::text::encode(&mut text, &self.registry)?;
        Ok(text)
    }
}

/// The servers' tables, written as one set of families: registered once, filled as the
/// servers start. Locked only at start-up and at scrape time, never by a request.
#[derive(Debug, Default, Clone)]
struct Servers(Arc<Mutex<Vec<Arc<ServerMetrics>>>>);

impl Servers {
    fn lock(&self) -> MutexGuard<'_, Vec<Arc<ServerMetrics>>> {
        self.0.lock().unwrap_or_else(|poison| poison.into_inner())
    }
}

impl Collector for Servers {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        let servers = self.lock().clone();
        http::encode(&servers, &mut encoder)
    }
}

/// The log lines the process's writer dropped because stderr did not take them
/// ([`crate::Logs`]), read at scrape time: the figure that says so when the log cannot.
#[derive(Debug)]
struct DroppedLogLines;

impl Collector for DroppedLogLines {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        use prometheus_client::encoding::EncodeMetric as _;
        let counter =
            prometheus_client::metrics::counter::ConstCounter::new(crate::dropped_log_lines());
        let name = "dcx_log_lines_dropped";
        let help = "Log lines dropped because stderr did not take them (the log says how many once it does)";
        counter.encode(encoder.encode_descriptor(name, help, None, counter.metric_type())?)
    }
}
