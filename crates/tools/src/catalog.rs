//! The closed list of tools: names, definitions (schemas, annotations) and the one
//! `match` that runs them.

use std::sync::Arc;

#[cfg(test)]
mod tests;

use datasets::{History, Snapshot};
use jsonrpc::Object;
use pricing::PricingSet;
use serde_json::{Value, json, value::RawValue};

use crate::{
    apps,
    args::ArgumentErrors,
    check, depth, index,
    memo::{self, LastBuilt},
    price::{self, Answered, Links},
    schemas,
};

/// One of the tools this server offers. `ALL` is the fixed `tools/list` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `get_diamond_price`: an interpolated quote for one stone.
    Price,
    /// `get_dcx_index`: the DCX, its trends and its basket.
    Index,
    /// `get_market_depth`: observed-offer counts.
    Depth,
    /// `check_asking_price`: where an asking price stands against the benchmark.
    Check,
}

impl Tool {
    /// Every tool, in `tools/list` order.
    pub const ALL: [Tool; 4] = [Tool::Price, Tool::Index, Tool::Depth, Tool::Check];

    /// The tool's name, as called.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Price => "get_diamond_price",
            Tool::Index => "get_dcx_index",
            Tool::Depth => "get_market_depth",
            Tool::Check => "check_asking_price",
        }
    }

    /// The tool called `name`, if any (exact match).
    pub fn from_name(name: &str) -> Option<Tool> {
        Tool::ALL.into_iter().find(|tool| tool.name() == name)
    }

    fn title(self) -> &'static str {
        match self {
            Tool::Price => "Get Diamond Price",
            Tool::Index => "Get DCX Index",
            Tool::Depth => "Get Market Depth",
            Tool::Check => "Check Asking Price",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Tool::Price => {
                "Price a natural, lab-graded diamond: log-linear interpolation between carat \
                 bands of the published price matrix, then the shape's length-to-width ratio \
                 model for fancy shapes. Returns per-carat and total USD, the ratio ranges \
                 and whether the ratio is preference-driven, the snapshot time (as_of) and a \
                 tracking link. A model-based benchmark, not an offer."
            }
            Tool::Index => {
                "The Diamond Composite Index (DCX): weighted geometric mean of a basket of \
                 round stones' per-carat prices, with its 24-hour, 7-day and 30-day trends in \
                 percent (null with a reason when the history is too short) and the basket."
            }
            Tool::Depth => {
                "Observed-offer market depth. With carat: counts by colour and clarity at the \
                 nearest published carat point, their total and an availability label. \
                 Without carat: the available carat points and the top 10 colour/clarity \
                 combinations."
            }
            Tool::Check => {
                "Check a seller's asking price for a natural, lab-graded diamond: the same \
                 arguments as get_diamond_price plus asking_price_usd (the total asked). \
                 Returns the benchmark price (total and per carat), where the ask falls among \
                 comparable asks (percentile, 0-100), the ask against the benchmark in percent \
                 (discount_pct, negative below it), a verdict by the 10th-90th percentile \
                 range (below_market, within_market, above_market), the range, the asks behind \
                 it (observations) and how the price was made (basis). A model-based \
                 benchmark, not an appraisal."
            }
        }
    }

    /// The `inputSchema` of the tool for the snapshot priced from `prices`: every call it
    /// allows is answered (the shapes and ratios it states are the snapshot's).
    pub fn input_schema(self, prices: &PricingSet) -> Value {
        match self {
            Tool::Price => schemas::price_input(prices),
            Tool::Index => schemas::index_input(),
            Tool::Depth => schemas::depth_input(),
            Tool::Check => check::input_schema(prices),
        }
    }

    /// The `outputSchema` every successful `structuredContent` of the tool matches.
    pub fn output_schema(self) -> Value {
        match self {
            Tool::Price => schemas::price_output(),
            Tool::Index => schemas::index_output(),
            Tool::Depth => schemas::depth_output(),
            Tool::Check => check::output_schema(),
        }
    }

    /// The tool's `tools/list` entry for the snapshot priced from `prices`.
    /// A tool with an MCP Apps view names it in `_meta` (`apps::tool_meta`).
    pub fn definition(self, prices: &PricingSet) -> Value {
        let mut definition = json!({
            "name": self.name(),
            "title": self.title(),
            "description": self.description(),
            "inputSchema": self.input_schema(prices),
            "outputSchema": self.output_schema(),
            "annotations": {
                "title": self.title(),
                "readOnlyHint": true,
                "destructiveHint": false,
                "idempotentHint": true,
                "openWorldHint": false,
            },
        });
        if let (Some(meta), Value::Object(fields)) = (apps::tool_meta(self), &mut definition) {
            fields.insert("_meta".to_owned(), meta);
        }
        definition
    }

    /// Runs the tool on the live snapshot of `history` (`get_dcx_index` also reads the
    /// days before it).
    #[inline(always)]
    pub fn call(
        self,
        history: &Arc<History>,
        arguments: &Object<'_>,
        links: &Links,
    ) -> Result<Answered, ArgumentErrors> {
        match self {
            Tool::Price => price::price(history.live(), arguments, links).map(Answered::Written),
            Tool::Index => index::dcx_index(history, arguments),
            Tool::Depth => depth::market_depth(history.live(), arguments),
            Tool::Check => {
                check::check_asking_price(history.live(), arguments).map(Answered::Written)
            }
        }
    }
}

/// Every tool's `tools/list` entry, in order, for the snapshot priced from `prices`
/// (the live one: its shapes and sliders are in `get_diamond_price`'s `inputSchema`).
pub fn tool_definitions(prices: &PricingSet) -> Vec<Value> {
    Tool::ALL.into_iter().map(|tool| tool.definition(prices)).collect()
}

/// The `tools` array of `tools/list` for `snapshot`, written as JSON once per snapshot and
/// thread ([`LastBuilt`]; a server's few workers each write it once a day): a list is
/// answered by copying it.
pub(crate) fn live_tool_list(snapshot: &Arc<Snapshot>) -> Arc<RawValue> {
    thread_local! {
        static LAST: LastBuilt<Snapshot, Arc<RawValue>> = const { LastBuilt::new() };
    }
    LAST.with(|last| last.get(snapshot, || memo::written(&tool_definitions(snapshot.pricing()))))
}
