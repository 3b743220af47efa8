//! Content coding: `Accept-Encoding` negotiation and gzip compression.

use std::{cell::RefCell, io::Write};

use bytes::Bytes;
use flate2::{Compress, Compression, Crc, FlushCompress, Status, write::GzEncoder};
use hyper::{
    HeaderMap,
    header::{self, HeaderValue},
};

use crate::qvalue::{Weight, weighted_line};

#[cfg(test)]
mod tests;

/// Whether to send gzip rather than the identity coding ([`Codings::prefers_gzip`]).
pub(crate) fn prefers_gzip(headers: &HeaderMap) -> bool {
    let mut codings = Codings::default();
    for line in headers.get_all(header::ACCEPT_ENCODING) {
        codings.add(line);
    }
    codings.prefers_gzip()
}

/// The weights an `Accept-Encoding` field gives the codings we choose between, read one
/// field line at a time.
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Codings {
    gzip: Option<Weight>,
    identity: Option<Weight>,
    any: Option<Weight>,
}

impl Codings {
    /// Reads one `Accept-Encoding` field line.
    pub(crate) fn add(&mut self, line: &HeaderValue) {
        // `gzip` alone, as Go's client and many pollers send it: weight 1, the most
        // generous, with no list to split.
        if line.as_bytes() == b"gzip" {
            self.gzip = Some(1000);
            return;
        }
        weighted_line(line, |coding, weight| {
            let slot =
                if coding.eq_ignore_ascii_case(b"gzip") || coding.eq_ignore_ascii_case(b"x-gzip") {
                    &mut self.gzip
                } else if coding.eq_ignore_ascii_case(b"identity") {
                    &mut self.identity
                } else if coding == b"*" {
                    &mut self.any
                } else {
                    return;
                };
            // If a coding is listed twice, the most generous weight wins.
            *slot = Some(slot.map_or(weight, |seen| seen.max(weight)));
        });
    }

    /// Whether to send gzip rather than the identity coding.
    ///
    /// gzip is chosen when the client gives it a non-zero weight (explicitly, as `gzip`
    /// or `x-gzip`, or through `*`) that is at least the weight it gives identity
    /// (explicitly or through `*`). Without an `Accept-Encoding` field, identity is sent:
    /// that is what every client understands.
    pub(crate) fn prefers_gzip(self) -> bool {
        let gzip = self.gzip.or(self.any).unwrap_or(0);
        let identity = self.identity.or(self.any).unwrap_or(0);
        gzip > 0 && gzip >= identity
    }
}

/// Compresses `identity` with gzip at the best level; `None` if that fails or does not
/// make the body smaller.
pub(crate) fn gzip(identity: &[u8]) -> Option<Bytes> {
    gzip_at(identity, Compression::best())
}

thread_local! {
    /// The fast compressor of this thread, reset for each body: setting one up costs more
    /// than compressing a few kilobytes with it.
    static FAST: RefCell<Compress> = RefCell::new(Compress::new(Compression::fast(), false));
}

/// The gzip member header [`GzEncoder`] writes too: no name, no time, unknown system.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff];

/// [`gzip`] at the fastest level: for a body built for one request, where the time to
/// compress is paid by that request alone. `None` as for [`gzip`].
pub(crate) fn gzip_fast(identity: &[u8]) -> Option<Bytes> {
    FAST.with(|compressor| {
        let mut compressor = compressor.borrow_mut();
        compressor.reset();
        let mut out = Vec::with_capacity(identity.len() / 2 + 64);
        out.extend_from_slice(&GZIP_HEADER);
        loop {
            let read = usize::try_from(compressor.total_in()).ok()?;
            let rest = identity.get(read..)?;
            match compressor.compress_vec(rest, &mut out, FlushCompress::Finish).ok()? {
                Status::StreamEnd => break,
                Status::Ok | Status::BufError => out.reserve(out.capacity().max(64)),
            }
        }
        let mut crc = Crc::new();
        crc.update(identity);
        out.extend_from_slice(&crc.sum().to_le_bytes());
        // The length modulo 2^32, as the format defines it.
        out.extend_from_slice(&(identity.len() as u32).to_le_bytes());
        (out.len() < identity.len()).then(|| Bytes::from(out))
    })
}

fn gzip_at(identity: &[u8], level: Compression) -> Option<Bytes> {
    let mut encoder = GzEncoder::new(Vec::with_capacity(identity.len() / 4), level);
    encoder.write_all(identity).ok()?;
    let compressed = encoder.finish().ok()?;
    (compressed.len() < identity.len()).then(|| Bytes::from(compressed))
}
