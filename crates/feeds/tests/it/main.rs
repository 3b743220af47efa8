//! Socket-level tests of the feed server, on `127.0.0.1:0` only: every route and
//! method, conditional requests, gzip, CORS, `/track` over several days, reloads and
//! shutdown with requests in flight, and the curl examples of `docs/api.md`.

mod check;
mod docs;
mod http;
mod pages;
mod reload;
mod stats;
mod support;
mod track;
