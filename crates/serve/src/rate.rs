//! The per-client request rate limit (a token bucket per client address) and the client
//! address itself, read from `X-Forwarded-For` only when a trusted proxy sent it.

use std::{
    collections::HashMap,
    net::IpAddr,
    sync::{Mutex, MutexGuard},
    time::Duration,
};

use hyper::HeaderMap;
use tokio::time::Instant;

#[cfg(test)]
mod tests;

/// Most client addresses tracked at once; past it, addresses whose bucket has refilled
/// are forgotten (they would start full anyway), so memory stays bounded whatever the
/// number of addresses a client uses.
const TRACKED_MAX: usize = 65_536;

/// A request rate per client address: `per_second` on average, bursts of `burst`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RateLimit {
    /// Requests per second a client may keep up (must be above 0).
    pub per_second: f64,
    /// Requests a client may send at once after a quiet spell (at least 1).
    pub burst: u32,
}

impl RateLimit {
    /// `per_second` with a burst of two seconds' worth (at least 1 request).
    pub fn per_second(per_second: f64) -> RateLimit {
        let burst = (per_second * 2.0).ceil().clamp(1.0, f64::from(u32::MAX)) as u32;
        RateLimit { per_second, burst }
    }
}

// `Limits` derives `Eq`; a rate is never NaN (the constructor's callers check it).
impl Eq for RateLimit {}

/// The buckets of every client address seen recently.
pub(crate) struct Limiter {
    limit: RateLimit,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Limiter {
    pub(crate) fn new(limit: RateLimit) -> Limiter {
        Limiter { limit, buckets: Mutex::new(HashMap::new()) }
    }

    fn buckets(&self) -> MutexGuard<'_, HashMap<IpAddr, Bucket>> {
        self.buckets.lock().unwrap_or_else(|poison| poison.into_inner())
    }

    /// Takes one token from `client`'s bucket: `Ok` when there was one, else how long
    /// until there is.
    pub(crate) fn take(&self, client: IpAddr) -> Result<(), Duration> {
        let (rate, burst) = (self.limit.per_second.max(f64::MIN_POSITIVE), self.limit.burst);
        let burst = f64::from(burst.max(1));
        let now = Instant::now();
        let mut buckets = self.buckets();
        if buckets.len() >= TRACKED_MAX && !buckets.contains_key(&client) {
            buckets.retain(|_, bucket| refilled(*bucket, now, rate, burst) < burst);
            if buckets.len() >= TRACKED_MAX {
                // Every tracked client is mid-burst: forget them all rather than grow.
                buckets.clear();
            }
        }
        let bucket = buckets.entry(client).or_insert(Bucket { tokens: burst, at: now });
        let tokens = refilled(*bucket, now, rate, burst);
        if tokens >= 1.0 {
            *bucket = Bucket { tokens: tokens - 1.0, at: now };
            Ok(())
        } else {
            *bucket = Bucket { tokens, at: now };
            Err(Duration::from_secs_f64((1.0 - tokens) / rate))
        }
    }
}

fn refilled(bucket: Bucket, now: Instant, rate: f64, burst: f64) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
    (bucket.tokens + elapsed * rate).min(burst)
}

/// The client's address: the peer's, unless the peer is a trusted proxy; then the
/// right-most `X-Forwarded-For` entry that is not itself a trusted proxy (each proxy
/// appends the address it saw), or the left-most one when every entry is trusted.
/// From an untrusted peer the header is ignored: anyone can send it.
pub(crate) fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded: Vec<IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|entry| entry.trim().parse().ok())
        .collect();
    forwarded
        .iter()
        .rev()
        .find(|address| !trusted.contains(address))
        .or(forwarded.first())
        .copied()
        .unwrap_or(peer)
}
