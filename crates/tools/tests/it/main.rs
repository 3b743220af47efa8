//! The tools crate's one integration test binary: golden request/response pairs replayed
//! over a real socket (`fixtures/jsonrpc/`), every result checked against its tool's
//! declared `outputSchema`, and no-panic properties of the handler.

mod bounded;
mod golden;
mod props;
mod schema;
mod support;
mod validator;
