//! MCP Apps views (the `io.modelcontextprotocol/ui` extension): two self-contained HTML
//! pages served as `ui://` resources, the DCX chart and the price calculator, and the
//! `_meta.ui` that links a tool to its view. A host without the extension sees two more
//! resources and a `_meta` it ignores; the tools' results are the same for every host.

use serde_json::{Value, json};

use crate::catalog::Tool;

#[cfg(test)]
mod tests;

/// The media type the extension gives a view.
pub(crate) const MIME: &str = "text/html;profile=mcp-app";

/// One view: its URI, its names and its page.
pub(crate) struct View {
    pub(crate) uri: &'static str,
    name: &'static str,
    title: &'static str,
    description: &'static str,
    pub(crate) html: &'static str,
}

/// The chart of the DCX by day, shown with `get_dcx_index`.
pub(crate) const CHART: View = View {
    uri: "ui://dcx/chart.html",
    name: "dcx_chart",
    title: "DCX chart",
    description: "MCP Apps view of get_dcx_index: the DCX of every published day as a line \
                  chart (reads dcx://history/dcx.json through the host).",
    html: include_str!("apps/chart.html"),
};

/// The price calculator, shown with `get_diamond_price`.
pub(crate) const CALCULATOR: View = View {
    uri: "ui://dcx/calculator.html",
    name: "dcx_calculator",
    title: "Diamond price calculator",
    description: "MCP Apps view of get_diamond_price: pick carat, colour, clarity, shape and \
                  ratio; it calls get_diamond_price through the host.",
    html: include_str!("apps/calculator.html"),
};

/// Every view, in `resources/list` order.
pub(crate) const VIEWS: [View; 2] = [CHART, CALCULATOR];

/// The view's `_meta.ui`: a CSP that allows no outside domain (the page loads nothing and
/// talks only to its host) and a bordered frame.
fn resource_meta() -> Value {
    json!({
        "ui": {
            "csp": { "connectDomains": [], "resourceDomains": [], "frameDomains": [], "baseUriDomains": [] },
            "prefersBorder": true,
        }
    })
}

/// The views' `resources/list` entries.
pub(crate) fn list() -> impl Iterator<Item = Value> {
    VIEWS.iter().map(|view| {
        json!({
            "uri": view.uri,
            "name": view.name,
            "title": view.title,
            "description": view.description,
            "mimeType": MIME,
            "_meta": resource_meta(),
        })
    })
}

/// The `resources/read` contents of `view`.
pub(crate) fn contents(view: &View) -> Value {
    json!([{ "uri": view.uri, "mimeType": MIME, "text": view.html, "_meta": resource_meta() }])
}

/// The `_meta` of `tool`'s definition when it has a view: `ui.resourceUri`, and the flat
/// `ui/resourceUri` key that hosts of the extension's first releases read.
pub(crate) fn tool_meta(tool: Tool) -> Option<Value> {
    let uri = match tool {
        Tool::Price => CALCULATOR.uri,
        Tool::Index => CHART.uri,
        Tool::Depth | Tool::Check => return None,
    };
    Some(json!({ "ui": { "resourceUri": uri }, "ui/resourceUri": uri }))
}
