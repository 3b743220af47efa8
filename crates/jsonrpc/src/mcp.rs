//! MCP result helpers: `complete` wraps a method result, `ToolCall` reads tools/call params.

use serde_json::{Map, Value, json};

use crate::{ErrorObject, error::type_name};

#[cfg(test)]
mod tests;

/// `_meta` key under which every result names the server.
pub const META_SERVER_INFO: &str = "io.modelcontextprotocol/serverInfo";

/// The server's identity, sent in every result's `_meta`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerInfo {
    /// The implementation name.
    pub name: String,
    /// The implementation version.
    pub version: String,
}

impl ServerInfo {
    /// A server identity.
    pub fn new(name: impl Into<String>, version: impl Into<String>) -> ServerInfo {
        ServerInfo { name: name.into(), version: version.into() }
    }
}

/// Wraps a method result: sets `"resultType":"complete"` and
/// `_meta["io.modelcontextprotocol/serverInfo"] = {name, version}`, keeping any other
/// `_meta` keys already in `result` (a `_meta` that is not an object is replaced).
pub fn complete(mut result: Map<String, Value>, server: &ServerInfo) -> Value {
    result.insert("resultType".to_owned(), Value::from("complete"));
    let info = json!({ "name": server.name, "version": server.version });
    match result.get_mut("_meta") {
        Some(Value::Object(meta)) => {
            meta.insert(META_SERVER_INFO.to_owned(), info);
        }
        _ => {
            let mut meta = Map::new();
            meta.insert(META_SERVER_INFO.to_owned(), info);
            result.insert("_meta".to_owned(), Value::Object(meta));
        }
    }
    Value::Object(result)
}

/// The params of a `tools/call` request.
#[derive(Clone, Debug, PartialEq)]
pub struct ToolCall {
    /// `params.name`: the tool to call. Whether it exists is the caller's question.
    pub name: String,
    /// `params.arguments`; `{}` when absent.
    pub arguments: Map<String, Value>,
}

impl ToolCall {
    /// Reads `name` (a string) and `arguments` (an object, `{}` when absent); anything else
    /// is -32602.
    pub fn from_params(params: &Map<String, Value>) -> Result<ToolCall, ErrorObject> {
        let name = match params.get("name") {
            Some(Value::String(name)) => name.clone(),
            _ => return Err(ErrorObject::invalid_params("tools/call needs params.name, a string")),
        };
        let arguments = match params.get("arguments") {
            None => Map::new(),
            Some(Value::Object(arguments)) => arguments.clone(),
            Some(other) => {
                return Err(ErrorObject::invalid_params(format!(
                    "tools/call params.arguments must be an object, got {}",
                    type_name(other)
                )));
            }
        };
        Ok(ToolCall { name, arguments })
    }
}
