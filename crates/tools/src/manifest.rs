//! The documents served by GET: the manifest (also a SEP-2127 server card) and health.

use std::sync::Arc;

use datasets::Live;
use serde_json::{Value, json};

use crate::{
    SERVER_NAME, SERVER_VERSION,
    catalog::{Tool, tool_definitions},
};

#[cfg(test)]
mod tests;

/// The SEP-2127 server card schema the manifest declares.
pub(crate) const CARD_SCHEMA: &str =
    "https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json";
/// The card's reverse-DNS `name` (`^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$`).
pub(crate) const CARD_NAME: &str = "io.github.dcx-pricing/dcx-diamond-pricing";

/// The manifest served at `/.well-known/mcp.json` and `/server-card`: our manifest fields
/// (server info, the protocol versions of both eras, endpoint, both transports,
/// capabilities, tools with schemas, resources and their template, prompts,
/// documentation) and the SEP-2127 card fields (`$schema`, reverse-DNS `name`,
/// `version`, `description`, `remotes`) in one document. The tools' schemas are those of
/// the live snapshot, `live`.
pub fn manifest(endpoint: &str, docs_url: &str, live: &Arc<datasets::Snapshot>) -> Value {
    let tools = tool_definitions(live.pricing());
    let http = json!({
        "type": "streamable-http",
        "url": endpoint,
        "supportedProtocolVersions": jsonrpc::ALL_VERSIONS,
    });
    json!({
        "$schema": CARD_SCHEMA,
        "name": CARD_NAME,
        "title": "DCX diamond pricing",
        "version": SERVER_VERSION,
        "description": "Diamond prices by carat, colour, clarity and shape; the DCX index; market depth.",
        "websiteUrl": docs_url,
        "remotes": [http],
        "serverInfo": { "name": SERVER_NAME, "version": SERVER_VERSION },
        "protocolVersion": jsonrpc::PROTOCOL_VERSION,
        "supportedVersions": jsonrpc::ALL_VERSIONS,
        "protocolEras": {
            "modern": {
                "versions": jsonrpc::SUPPORTED_VERSIONS,
                "handshake": "none: every request carries params._meta (server/discover lists the versions)",
            },
            "legacy": {
                "versions": jsonrpc::LEGACY_VERSIONS,
                "handshake": "initialize (without _meta), negotiating one of these versions",
            },
        },
        "endpoint": endpoint,
        "transport": "streamable-http",
        "transports": [
            http,
            {
                "type": "stdio",
                "command": "dcx",
                "args": ["mcp"],
                "supportedProtocolVersions": jsonrpc::ALL_VERSIONS,
            },
        ],
        "capabilities": crate::mcp::dispatch::capabilities(),
        "authentication": "none",
        "tools": *tools,
        "toolNames": Tool::ALL.iter().map(|t| t.name()).collect::<Vec<_>>(),
        "resources": crate::resources::list(),
        "resourceTemplates": crate::resources::templates(),
        "prompts": crate::prompts::list(),
        "documentation": { "url": docs_url },
        "cache": { "ttlMs": crate::mcp::dispatch::TTL_MS, "cacheScope": crate::mcp::dispatch::CACHE_SCOPE },
    })
}

/// The `/health` document: status, protocol versions, the live snapshot, where it comes
/// from (`source`, and `sample_data` when it is the embedded reference snapshot, whose
/// prices are made up) and the server. While newer data is refused, the status is
/// `degraded` and `refused` says which day and why (see `mark_degraded`).
pub fn health(data: &Live) -> Value {
    let history = data.history();
    let live = history.live();
    let mut health = json!({
        "status": "ok",
        "source": data.source().kind(),
        "sample_data": live.is_reference(),
        "protocolVersion": jsonrpc::PROTOCOL_VERSION,
        "supportedVersions": jsonrpc::ALL_VERSIONS,
        "snapshot": {
            "ts": live.ts_text(),
            "date": history.live_date().to_string(),
            "history_days": history.days().len(),
        },
        "server": { "name": SERVER_NAME, "version": SERVER_VERSION },
    });
    mark_degraded(&mut health, data.last_refusal().as_ref(), data.source());
    health
}

/// With a `refusal`: `"status": "degraded"` and `"refused": {"day", "reason"}` (`day`
/// null when the whole source was refused; `reason` without the folder paths of
/// `source`, [`datasets::Source::public_reason`]).
fn mark_degraded(
    health: &mut Value,
    refusal: Option<&datasets::Refusal>,
    source: &datasets::Source,
) {
    if let Some(refusal) = refusal {
        health["status"] = json!("degraded");
        let day = refusal.day.map(|day| day.to_string());
        let reason = source.public_reason(&refusal.reason);
        health["refused"] = json!({ "day": day, "reason": reason });
    }
}
