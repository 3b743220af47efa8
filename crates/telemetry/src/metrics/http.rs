//! The figures of one HTTP server, fed by its [`serve::Event`]s: requests by route and
//! status, latency by route, open and refused connections, rate-limited requests.
//!
//! Every table is made at start-up and only bumped afterwards, with relaxed atomic adds:
//! a request costs a few of them and nothing else (no lock, no look-up, no allocation).

use std::{
    sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed},
    time::Duration,
};

use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric, NoLabelSet};
use prometheus_client::metrics::{MetricType, counter::ConstCounter, gauge::ConstGauge};
use serve::{Cap, Event};

/// Upper bounds of the latency buckets in nanoseconds (`+Inf` follows): 50 µs to 10 s.
/// Whole numbers place a latency without floating point; the exposition divides.
pub(crate) const LATENCY_BOUNDS_NANOS: [u64; 17] = [
    50_000,
    100_000,
    250_000,
    500_000,
    1_000_000,
    2_500_000,
    5_000_000,
    10_000_000,
    25_000_000,
    50_000_000,
    100_000_000,
    250_000_000,
    500_000_000,
    1_000_000_000,
    2_500_000_000,
    5_000_000_000,
    10_000_000_000,
];

/// The route label of a request outside the service's routes.
pub(crate) const OTHER: &str = "other";

/// Status codes hyper can send: 100 to 999.
const FIRST_STATUS: u16 = 100;
const STATUSES: usize = 900;

/// The caps a connection can be refused over, in the order of their counters.
const CAPS: [Cap; 2] = [Cap::PerAddress, Cap::Total];

/// One server's figures. Made by [`crate::Metrics::server`]; [`ServerMetrics::record`]
/// is the server's event callback's second half.
#[derive(Debug)]
pub struct ServerMetrics {
    server: &'static str,
    /// The service's routes and then [`OTHER`], each with its figures.
    routes: Box<[Route]>,
    open: AtomicI64,
    refused: [AtomicU64; CAPS.len()],
    rate_limited: AtomicU64,
}

#[derive(Debug)]
struct Route {
    label: &'static str,
    /// Answers by status code, from [`FIRST_STATUS`].
    statuses: Box<[AtomicU64]>,
    /// Answers by latency bucket ([`LATENCY_BOUNDS_NANOS`], then `+Inf`): not cumulative.
    buckets: [AtomicU64; LATENCY_BOUNDS_NANOS.len() + 1],
    /// Sum of the latencies, in nanoseconds.
    sum_nanos: AtomicU64,
}

impl ServerMetrics {
    pub(crate) fn new(server: &'static str, routes: &[&'static str]) -> ServerMetrics {
        let routes = routes.iter().copied().chain([OTHER]).map(Route::new).collect();
        ServerMetrics {
            server,
            routes,
            open: AtomicI64::new(0),
            refused: Default::default(),
            rate_limited: AtomicU64::new(0),
        }
    }

    /// Counts what `event` says (answers, connections, refusals, rate limiting); the other
    /// events are the log's alone.
    pub fn record(&self, event: &Event<'_>) {
        match event {
            Event::Answered { route, status, elapsed } => {
                let other = self.routes.len() - 1;
                let route = route.filter(|&index| index < other).unwrap_or(other);
                self.routes[route].answered(*status, *elapsed);
            }
            Event::Opened => {
                self.open.fetch_add(1, Relaxed);
            }
            Event::Closed => {
                self.open.fetch_sub(1, Relaxed);
            }
            Event::Refused { cap, .. } => {
                // In the order of `CAPS`; a new cap fails to compile here.
                let index = match cap {
                    Cap::PerAddress => 0,
                    Cap::Total => 1,
                };
                self.refused[index].fetch_add(1, Relaxed);
            }
            Event::RateLimited { .. } => {
                self.rate_limited.fetch_add(1, Relaxed);
            }
            _ => {}
        }
    }
}

impl Route {
    fn new(label: &'static str) -> Route {
        Route {
            label,
            statuses: (0..STATUSES).map(|_| AtomicU64::new(0)).collect(),
            buckets: Default::default(),
            sum_nanos: AtomicU64::new(0),
        }
    }

    fn answered(&self, status: u16, elapsed: Duration) {
        if let Some(count) = self.statuses.get(usize::from(status.wrapping_sub(FIRST_STATUS))) {
            count.fetch_add(1, Relaxed);
        }
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        let bucket = LATENCY_BOUNDS_NANOS.partition_point(|&bound| bound < nanos);
        self.buckets[bucket].fetch_add(1, Relaxed);
        self.sum_nanos.fetch_add(nanos, Relaxed);
    }

    /// The buckets as the encoder wants them (upper bound, count in it; infinity is
    /// `+Inf`), their total, and the sum in seconds. Read bucket by bucket while requests
    /// go on: the count is the buckets' own total, so the histogram stays consistent.
    fn histogram(&self) -> (Vec<(f64, u64)>, u64, f64) {
        let seconds = LATENCY_BOUNDS_NANOS.iter().map(|&nanos| nanos as f64 / 1e9);
        let bounds = seconds.chain([f64::INFINITY]);
        let buckets: Vec<(f64, u64)> =
            bounds.zip(&self.buckets).map(|(bound, count)| (bound, count.load(Relaxed))).collect();
        let count = buckets.iter().map(|(_, count)| count).sum();
        (buckets, count, self.sum_nanos.load(Relaxed) as f64 / 1e9)
    }
}

/// Writes the HTTP families of every server, each family once (a family's samples must
/// stand together, whatever the number of servers).
pub(crate) fn encode(
    servers: &[std::sync::Arc<ServerMetrics>],
    encoder: &mut DescriptorEncoder<'_>,
) -> Result<(), std::fmt::Error> {
    let mut family = encoder.encode_descriptor(
        "dcx_http_requests",
        "HTTP requests answered, by server, route and status code.",
        None,
        MetricType::Counter,
    )?;
    for server in servers {
        for route in &server.routes {
            for (offset, count) in route.statuses.iter().enumerate() {
                let count = count.load(Relaxed);
                if count > 0 {
                    let status = FIRST_STATUS + offset as u16;
                    let labels =
                        ([("server", server.server), ("route", route.label)], [("status", status)]);
                    ConstCounter::new(count).encode(family.encode_family(&labels)?)?;
                }
            }
        }
    }

    let mut family = encoder.encode_descriptor(
        "dcx_http_request_duration_seconds",
        "Time from a request's head being read to its response being ready, by server and route.",
        None,
        MetricType::Histogram,
    )?;
    for server in servers {
        for route in &server.routes {
            let (buckets, count, sum) = route.histogram();
            if count > 0 {
                let labels = [("server", server.server), ("route", route.label)];
                let mut metric = family.encode_family(&labels)?;
                metric.encode_histogram::<NoLabelSet>(sum, count, &buckets, None)?;
            }
        }
    }

    per_server(
        encoder,
        servers,
        ("dcx_http_connections_open", "Connections open now, by server.", MetricType::Gauge),
        |server| ConstGauge::new(server.open.load(Relaxed)),
    )?;

    let mut family = encoder.encode_descriptor(
        "dcx_http_connections_refused",
        "Connections refused over a cap (per_address: 429, total: 503), by server and cap.",
        None,
        MetricType::Counter,
    )?;
    for server in servers {
        for (cap, count) in CAPS.iter().zip(&server.refused) {
            let labels = [("server", server.server), ("cap", cap.label())];
            ConstCounter::new(count.load(Relaxed)).encode(family.encode_family(&labels)?)?;
        }
    }

    per_server(
        encoder,
        servers,
        (
            "dcx_http_rate_limited",
            "Requests answered 429 over their client's rate (--rate-limit-per-ip), by server.",
            MetricType::Counter,
        ),
        |server| ConstCounter::new(server.rate_limited.load(Relaxed)),
    )?;
    Ok(())
}

/// Writes a family of one sample per server, labelled `server`: `family` is its name,
/// help and type, `value` the sample of one server.
fn per_server<M: EncodeMetric>(
    encoder: &mut DescriptorEncoder<'_>,
    servers: &[std::sync::Arc<ServerMetrics>],
    (name, help, kind): (&str, &str, MetricType),
    value: impl Fn(&ServerMetrics) -> M,
) -> Result<(), std::fmt::Error> {
    let mut family = encoder.encode_descriptor(name, help, None, kind)?;
    for server in servers {
        value(server).encode(family.encode_family(&[("server", server.server)])?)?;
    }
    Ok(())
}
