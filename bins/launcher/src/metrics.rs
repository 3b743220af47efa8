//! The metrics flag: `--metrics-listen ADDR` serves Prometheus metrics at `/metrics` on a
//! listener of its own, apart from the public one.

use std::{net::SocketAddr, sync::Arc};

use hyper::{
    Method, Response, StatusCode,
    header::{CACHE_CONTROL, CONTENT_TYPE, HeaderValue},
};

#[cfg(test)]
mod tests;

/// `--metrics-listen ADDR`; see docs/operations.md ("Metrics").
#[derive(Debug, Clone, clap::Args)]
pub struct MetricsFlags {
    /// Serve Prometheus metrics (OpenMetrics text) at http://ADDR/metrics, on a listener
    /// of its own; off by default. Keep ADDR private: loopback, or a network only the
    /// scraper reaches.
    #[arg(long, value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,
}

impl MetricsFlags {
    /// With `--metrics-listen`: binds it, logs its address, serves the metrics of a
    /// process running `version` over `live` there until the process ends, and returns
    /// them for the servers, the reload loop and the tool calls to count into. Without
    /// the flag: `None`, and nothing is counted.
    pub async fn start(
        &self,
        version: &'static str,
        live: &Arc<datasets::Live>,
        clock: &serve::Clock,
    ) -> Result<Option<Arc<telemetry::Metrics>>, serve::BindError> {
        let Some(addr) = self.metrics_listen else {
            return Ok(None);
        };
        let listener = serve::bind(addr).await?;
        telemetry::metrics_listening(listener.local_addr().unwrap_or(addr));
        let metrics =
            Arc::new(telemetry::Metrics::new(version, Arc::clone(live), Arc::clone(clock)));
        let limits =
            serve::Limits { max_body_bytes: 0, max_connections: 64, ..serve::Limits::default() };
        let page: Arc<dyn serve::Handler> = Arc::new(MetricsPage(Arc::clone(&metrics)));
        // Its start was logged above, before the servers' own `listening on` lines.
        let events = telemetry::on_event("metrics", None);
        let events = move |event: &serve::Event<'_>| {
            if !matches!(event, serve::Event::Listening(_)) {
                events(event);
            }
        };
        // Until the process ends: scrapes keep working while the servers drain.
        let forever = std::future::pending::<()>();
        tokio::spawn(serve::serve(listener, page, limits, forever, events, Default::default()));
        Ok(Some(metrics))
    }
}

/// `GET /metrics`: the metrics now.
pub(crate) struct MetricsPage(Arc<telemetry::Metrics>);

impl serve::Handler for MetricsPage {
    fn handle(&self, request: serve::Request) -> Response<serve::Body> {
        if request.uri.path() != "/metrics" {
            return serve::not_found(request.uri.path());
        }
        if request.method != Method::GET && request.method != Method::HEAD {
            return serve::method_not_allowed("GET, HEAD");
        }
        let Ok(text) = self.0.render() else {
            let body = r#"{"error":"the metrics could not be written"}"#;
            return serve::json_response(StatusCode::INTERNAL_SERVER_ERROR, body.into());
        };
        let mut response = Response::new(serve::Body::from(text));
        let headers = response.headers_mut();
        headers.insert(CONTENT_TYPE, HeaderValue::from_static(telemetry::CONTENT_TYPE));
        headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
        response
    }
}
