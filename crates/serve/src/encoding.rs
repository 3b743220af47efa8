//! Content coding: `Accept-Encoding` negotiation and gzip compression.

use std::io::Write;

use bytes::Bytes;
use flate2::{Compression, write::GzEncoder};
use hyper::{HeaderMap, header};

use crate::qvalue::{Weight, weighted};

#[cfg(test)]
mod tests;

/// Whether to send gzip rather than the identity coding.
///
/// gzip is chosen when the client gives it a non-zero weight (explicitly, as `gzip` or
/// `x-gzip`, or through `*`) that is at least the weight it gives identity (explicitly
/// or through `*`). Without an `Accept-Encoding` field, identity is sent: that is what
/// every client understands.
pub(crate) fn prefers_gzip(headers: &HeaderMap) -> bool {
    let (mut gzip, mut identity, mut any) = (None::<Weight>, None::<Weight>, None::<Weight>);
    for (coding, weight) in weighted(headers, &header::ACCEPT_ENCODING) {
        let slot = if coding.eq_ignore_ascii_case("gzip") || coding.eq_ignore_ascii_case("x-gzip") {
            &mut gzip
        } else if coding.eq_ignore_ascii_case("identity") {
            &mut identity
        } else if coding == "*" {
            &mut any
        } else {
            continue;
        };
        // If a coding is listed twice, the most generous weight wins.
        *slot = Some(slot.map_or(weight, |seen| seen.max(weight)));
    }
    let gzip = gzip.or(any).unwrap_or(0);
    let identity = identity.or(any).unwrap_or(0);
    gzip > 0 && gzip >= identity
}

/// Compresses `identity` with gzip at the best level; `None` if that fails or does not
/// make the body smaller.
pub(crate) fn gzip(identity: &[u8]) -> Option<Bytes> {
    gzip_at(identity, Compression::best())
}

/// [`gzip`] at the fastest level: for a body built for one request, where the time to
/// compress is paid by that request alone.
pub(crate) fn gzip_fast(identity: &[u8]) -> Option<Bytes> {
    gzip_at(identity, Compression::fast())
}

fn gzip_at(identity: &[u8], level: Compression) -> Option<Bytes> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(identity.len() / 4), level);
    encoder.write_all(identity).ok()?;
    let compressed = encoder.finish().ok()?;
    (compressed.len() < identity.len()).then(|| Bytes::from(compressed))
}
