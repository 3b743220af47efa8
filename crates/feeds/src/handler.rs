//! [`Feeds`]: the request handler over the live history, and its reload.

use std::sync::Arc;

use arc_swap::ArcSwap;
use bytes::Bytes;
use hyper::{
    Method, Response, StatusCode,
    header::{self, HeaderValue},
};
use serde_json::json;
use serve::{Body, Request};

use crate::{ALLOW, Config, Route, cache::cache_control_at, check, page, served::Served, track};

#[cfg(test)]
mod tests;

/// Request headers a cross-origin script may send (answered in preflights).
const ALLOW_HEADERS: &str =
    "Accept, Accept-Encoding, Cache-Control, If-Modified-Since, If-None-Match";
/// How long a browser may cache a preflight answer, in seconds.
const PREFLIGHT_MAX_AGE: u32 = 86_400;

/// The feed server: a [`serve::Handler`] over the history being served.
///
/// Requests never lock: each takes one `Arc` of the current per-history state (the
/// history and its precomputed representations) and answers from it alone.
pub struct Feeds {
    config: Config,
    /// Rebuilt by the `Live`'s swap hook each time a reload makes a new history live.
    current: Arc<ArcSwap<Served>>,
}

impl std::fmt::Debug for Feeds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Feeds")
            .field("source", self.config.live.source())
            .field("ts", &self.current.load().ts_text)
            .finish()
    }
}

impl Feeds {
    /// Precomputes every representation of `config.live`'s history, and has the `Live`
    /// rebuild them whenever a reload swaps a new history in (the reload's blocking
    /// thread pays for it, never a request).
    pub fn new(config: Config) -> Feeds {
        let (name, version) = (config.name, config.version);
        let served = Served::new(config.live.history(), name, version);
        let current = Arc::new(ArcSwap::from_pointee(served));
        let rebuilt = Arc::clone(&current);
        config.live.on_swap(move |history| {
            rebuilt.store(Arc::new(Served::new(Arc::clone(history), name, version)))
        });
        Feeds { config, current }
    }

    /// The configuration the feeds were opened with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The `ts` of the snapshot served, as published.
    pub fn live_ts(&self) -> String {
        self.current.load().ts_text.clone()
    }

    fn dispatch(&self, request: &Request) -> Response<Body> {
        if request.method == Method::OPTIONS {
            return preflight(request);
        }
        let Some(route) = Route::from_path(request.uri.path()) else {
            return with_cors(serve::not_found(request.uri.path()));
        };
        if request.method != Method::GET && request.method != Method::HEAD {
            return with_cors(serve::method_not_allowed(ALLOW));
        }
        // One snapshot per request: everything below reads this one `Arc`.
        let served = self.current.load();
        let cache = cache_control_at(served.ts, (self.config.clock)());
        match route {
            Route::Feed(feed) => served.feed(feed).respond(request, &cache),
            Route::Home => {
                let page = match serve::accepts_html(&request.headers) {
                    true => &served.pages.home,
                    false => &served.home_json,
                };
                // Its `Vary` also names `Accept` (see `Served::new`).
                page.respond(request, &cache)
            }
            Route::Health => {
                let mut body = json!({
                    "status": "ok",
                    "server": { "name": self.config.name, "version": self.config.version },
                    "ts": served.ts_text,
                    "source": self.config.live.source().kind(),
                    "sample_data": served.pages.sample,
                    "live_date": served.history.live_date().to_string(),
                    "history_days": served.history.days().len(),
                });
                // Newer data refused: still serving (200), but not as fresh as offered.
                if let Some(refusal) = self.config.live.last_refusal() {
                    let day = refusal.day.map(|day| day.to_string());
                    body["status"] = json!("degraded");
                    let reason = self.config.live.source().public_reason(&refusal.reason);
                    body["refused"] = json!({ "day": day, "reason": reason });
                }
                with_cors(serve::json_response(StatusCode::OK, Bytes::from(body.to_string())))
            }
            Route::Track => with_cors(track::respond(&served.history, request, &cache)),
            Route::Check => with_cors(check::respond(&served.history, request, &cache)),
            Route::Quote => with_cors(page::quote(
                &served.history,
                served.pages.sample,
                self.config.name,
                self.config.version,
                request,
                &cache,
            )),
            Route::Document(document) => match served.pages.document(document) {
                Some(representation) => representation.respond(request, &cache),
                // A day published without `matrix_stats.json`.
                None => with_cors(serve::not_found(request.uri.path())),
            },
        }
    }
}

impl serve::Handler for Feeds {
    /// The route's place in [`Route::ALL`].
    fn route(&self, path: &str) -> Option<usize> {
        Route::from_path(path).map(Route::position)
    }

    /// `/track` and a priced `/quote` compute a quote per day of their window, `/check`
    /// one per query: the routes a rate limit meters (the calculator's empty form is
    /// prebuilt work).
    fn is_metered(&self, request: &Request) -> bool {
        match request.uri.path() {
            "/track" | "/check" => true,
            "/quote" => request.uri.query().is_some_and(|query| !query.is_empty()),
            _ => false,
        }
    }

    /// Prebuilt representations carry their CORS fields already (`Served::new`); the
    /// answers built per request (`/health`, `/track`, errors) get them as they are built.
    fn handle(&self, request: Request) -> Response<Body> {
        let mut response = self.dispatch(&request);
        if request.method == Method::HEAD {
            without_body(&mut response);
        }
        response
    }
}

/// An answer built per request, with the CORS fields of every answer.
fn with_cors(mut response: Response<Body>) -> Response<Body> {
    serve::cors_any_origin(response.headers_mut());
    response
}

/// `204` for `OPTIONS` on any path: a CORS preflight answer open to any origin.
fn preflight(request: &Request) -> Response<Body> {
    let mut response = serve::preflight(request, ALLOW, ALLOW_HEADERS, PREFLIGHT_MAX_AGE);
    let headers = response.headers_mut();
    // Public data: `*` rather than the echoed origin, so the answer does not vary.
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    headers.remove(header::VARY);
    headers.insert(header::ALLOW, HeaderValue::from_static(ALLOW));
    response
}

/// Keeps a response's headers (with the `Content-Length` GET would have) and drops its
/// body, as HEAD requires. Responses that are already bodiless are left alone.
fn without_body(response: &mut Response<Body>) {
    let length = hyper::body::Body::size_hint(response.body()).exact().unwrap_or(0);
    if length > 0 {
        response.headers_mut().insert(header::CONTENT_LENGTH, HeaderValue::from(length));
        *response.body_mut() = Body::default();
    }
}
