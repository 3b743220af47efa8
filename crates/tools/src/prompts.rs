//! MCP prompts: "price this stone" and "is this asking price fair", each a user message
//! that tells the model which tools to call with which arguments. Argument values are
//! not checked here: the tools check them and say what is allowed.

use jsonrpc::{ErrorObject, Field, Params, Sent};
use serde_json::{Map, Value, json};

#[cfg(test)]
mod tests;

/// One of the prompts this server offers. `ALL` is the `prompts/list` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Prompt {
    /// `price_stone`: quote one stone.
    Price,
    /// `fair_asking_price`: compare an asking price with the benchmark.
    Fair,
}

/// One prompt argument: name, description, required.
type Argument = (&'static str, &'static str, bool);

const STONE: [Argument; 4] = [
    ("carat", "Weight in carats, 0.3 to 6.0.", true),
    ("color", "Colour grade, D to M.", true),
    ("clarity", "Clarity grade: FL, IF, VVS1, VVS2, VS1, VS2, SI1 or SI2.", true),
    (
        "shape",
        "round (the default), cushion, radiant, emerald, oval, pear, marquise or heart.",
        false,
    ),
];

const ASKING: Argument =
    ("asking_price_usd", "The seller's asking price for the whole stone, in US dollars.", true);

impl Prompt {
    /// Every prompt, in `prompts/list` order.
    pub(crate) const ALL: [Prompt; 2] = [Prompt::Price, Prompt::Fair];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Prompt::Price => "price_stone",
            Prompt::Fair => "fair_asking_price",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Prompt> {
        Prompt::ALL.into_iter().find(|prompt| prompt.name() == name)
    }

    fn title(self) -> &'static str {
        match self {
            Prompt::Price => "Price this stone",
            Prompt::Fair => "Is this asking price fair?",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Prompt::Price => {
                "Quote one diamond (carat, colour, clarity, optional shape) with \
                 get_diamond_price, and put the benchmark in context with market depth."
            }
            Prompt::Fair => {
                "Check a seller's asking price for one diamond against the DCX benchmark and \
                 the range of comparable asks (check_asking_price), the observed offers \
                 (get_market_depth) and the index trend."
            }
        }
    }

    fn arguments(self) -> Vec<Argument> {
        match self {
            Prompt::Price => STONE.to_vec(),
            Prompt::Fair => STONE.iter().copied().chain([ASKING]).collect(),
        }
    }

    /// The prompt's `prompts/list` entry.
    fn definition(self) -> Value {
        let arguments: Vec<Value> = self
            .arguments()
            .into_iter()
            .map(|(name, description, required)| {
                json!({ "name": name, "description": description, "required": required })
            })
            .collect();
        json!({
            "name": self.name(),
            "title": self.title(),
            "description": self.description(),
            "arguments": arguments,
        })
    }

    /// Whether the prompt takes an argument `name`.
    pub(crate) fn has_argument(self, name: &str) -> bool {
        self.arguments().iter().any(|(known, _, _)| *known == name)
    }
}

/// Every prompt's `prompts/list` entry, in order.
pub(crate) fn list() -> Value {
    Value::Array(Prompt::ALL.into_iter().map(Prompt::definition).collect())
}

/// The prompt named by `params.name`, or -32602 naming the ones offered.
/// `name` is the name sent when it is a string.
pub(crate) fn named(method: &str, name: Option<&str>) -> Result<Prompt, ErrorObject> {
    let offered = || Prompt::ALL.map(Prompt::name).join(", ");
    match name {
        Some(name) => Prompt::from_name(name).ok_or_else(|| {
            ErrorObject::invalid_params(format!(
                "unknown prompt {}; this server offers {}",
                words::quoted(name),
                offered()
            ))
        }),
        _ => Err(ErrorObject::invalid_params(format!(
            "{method} needs the prompt's name, a string: one of {}",
            offered()
        ))),
    }
}

/// `prompts/get`: the prompt's description and its one user message. A missing required
/// argument, or one that is not a string or a number, is -32602.
pub(crate) fn get(params: &Params<'_>) -> Result<Map<String, Value>, ErrorObject> {
    let prompt = named("prompts/get", params.name.as_ref().and_then(Field::as_str))?;
    let arguments = match &params.arguments {
        None => &jsonrpc::EMPTY_OBJECT,
        Some(Sent::Object(arguments)) => arguments,
        Some(Sent::Other(other)) => {
            return Err(ErrorObject::invalid_params(format!(
                "prompts/get params.arguments must be an object of strings, got {}",
                other.type_name()
            )));
        }
    };
    let mut values = Map::new();
    let mut missing = Vec::new();
    for (name, description, required) in prompt.arguments() {
        match arguments.get(name) {
            Some(Field::Str(text)) if !text.trim().is_empty() => {
                values.insert(name.to_owned(), Value::from(words::clip(text.trim())));
            }
            Some(Field::Value(Value::Number(number))) => {
                values.insert(name.to_owned(), Value::from(number.to_string()));
            }
            Some(Field::Str(_)) | None if required => {
                missing.push(format!("{name} ({description})"));
            }
            Some(Field::Str(_)) | None => {}
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "prompt {} argument {name} must be a string, got {}",
                    prompt.name(),
                    other.type_name()
                )));
            }
        }
    }
    if !missing.is_empty() {
        return Err(ErrorObject::invalid_params(format!(
            "prompt {} needs {}",
            prompt.name(),
            missing.join("; ")
        )));
    }
    let text = match prompt {
        Prompt::Price => price_text(&values),
        Prompt::Fair => fair_text(&values),
    };
    let message = json!({ "role": "user", "content": { "type": "text", "text": text } });
    Ok(Map::from_iter([
        ("description".to_owned(), Value::from(prompt.description())),
        ("messages".to_owned(), Value::Array(vec![message])),
    ]))
}

fn value<'v>(values: &'v Map<String, Value>, name: &str) -> &'v str {
    values.get(name).and_then(Value::as_str).unwrap_or("")
}

/// The stone as the tools take it: carat a number when it reads as one.
fn stone_arguments(values: &Map<String, Value>) -> (String, Value) {
    let carat = value(values, "carat");
    let carat_value = carat.parse::<f64>().ok().map_or_else(|| json!(carat), |c| json!(c));
    let shape = values.get("shape").and_then(Value::as_str);
    let mut arguments = json!({
        "carat": carat_value,
        "color": value(values, "color"),
        "clarity": value(values, "clarity"),
    });
    if let Some(shape) = shape {
        arguments["shape"] = json!(shape);
    }
    let described = format!(
        "{carat} ct, colour {}, clarity {}, {}",
        value(values, "color"),
        value(values, "clarity"),
        shape.unwrap_or("round")
    );
    (described, arguments)
}

fn price_text(values: &Map<String, Value>) -> String {
    let (stone, arguments) = stone_arguments(values);
    let depth = json!({ "carat": arguments["carat"] });
    format!(
        "Price this diamond: {stone}.\n\n\
         1. Call the tool get_diamond_price with arguments {arguments}.\n\
         2. Call get_market_depth with arguments {depth} to see how many comparable offers \
         were observed.\n\
         3. Answer with total_usd and per_carat_usd, the snapshot time (as_of), for a fancy \
         shape the ratio range the price assumes, and how deep the market is.\n\n\
         If a tool answers with isError, tell the user what it says is allowed and ask for a \
         corrected value; do not guess. The price is a model-based benchmark from a daily \
         snapshot, not an offer."
    )
}

fn fair_text(values: &Map<String, Value>) -> String {
    let (stone, arguments) = stone_arguments(values);
    let depth = json!({ "carat": arguments["carat"] });
    let asking = value(values, ASKING.0);
    let mut check = arguments.clone();
    check[ASKING.0] = asking.parse::<f64>().ok().map_or_else(|| json!(asking), |a| json!(a));
    format!(
        "A seller asks {asking} USD for this diamond: {stone}. Is that price fair?\n\n\
         1. Call the tool check_asking_price with arguments {check}: the benchmark, where the \
         ask falls among comparable asks (percentile), its discount against the benchmark \
         (discount_pct) and a verdict by the 10th-90th percentile range.\n\
         2. Call get_market_depth with arguments {depth} for the observed offers around that \
         carat.\n\
         3. Call get_dcx_index with arguments {{}} for the market's recent trend.\n\
         4. Answer with the verdict, the percentile and discount_pct, the range (low_usd to \
         high_usd, its observations and basis) and the benchmark total_usd, and how much \
         weight they deserve given the market depth and the trend. If check_asking_price is \
         not offered or answers that the snapshot has no spread data, call get_diamond_price with \
         arguments {arguments} and compare the asking price with total_usd instead: the \
         difference in USD and in percent of total_usd.\n\n\
         If a tool answers with isError, tell the user what it says is allowed and ask for a \
         corrected value; do not guess. The benchmark is model-based, from a daily snapshot, \
         not an offer; grading, cut and certificate differences can justify a gap."
    )
}
