//! The tools crate's one integration test binary: golden request/response pairs replayed
//! over a real socket (`fixtures/jsonrpc/`), every result checked against its tool's
//! declared `outputSchema`, no-panic properties of the handler, and the answers built
//! once per day following a reload.

mod bounded;
mod golden;
mod props;
mod reload;
mod schema;
mod support;
mod validator;
