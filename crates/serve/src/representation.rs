//! A precomputed representation of one resource, served with conditional GET and gzip.

use std::fmt;

use bytes::Bytes;
use hyper::{
    Method, Response, StatusCode,
    header::{self, HeaderMap, HeaderValue},
};

use crate::{
    Body, Request,
    conditional::{if_none_match, not_modified_since},
    date::http_date,
    encoding::{gzip, prefers_gzip},
};

#[cfg(test)]
mod tests;

/// One resource's bytes with everything a response needs, computed once per dataset.
///
/// Construction hashes the bytes into a strong ETag (`"<16 hex digits>"`, FNV-1a 64)
/// and compresses them with gzip; the gzip variant has its own strong tag (the same
/// with `-gz` inside the quotes). Serving is then only header work and cheap clones of
/// shared bytes. If gzip would not shrink the body, only the identity variant exists.
#[derive(Clone)]
pub struct Representation {
    identity: Bytes,
    gzip: Option<Bytes>,
    content_type: HeaderValue,
    /// Opaque tags, unquoted: identity, then gzip.
    tag: String,
    gzip_tag: String,
    etag: HeaderValue,
    gzip_etag: HeaderValue,
    last_modified: i64,
    last_modified_header: HeaderValue,
}

impl Representation {
    /// Prepares `identity` (the uncompressed bytes) for serving as `content_type`, last
    /// modified at `last_modified_unix` (unix seconds).
    ///
    /// A `content_type` that is not a valid header value is replaced by
    /// `application/octet-stream`.
    pub fn new(
        identity: Bytes,
        content_type: &'static str,
        last_modified_unix: i64,
    ) -> Representation {
        let tag = format!("{:016x}", fnv1a64(&identity));
        let gzip_tag = format!("{tag}-gz");
        Representation {
            gzip: gzip(&identity),
            identity,
            content_type: HeaderValue::from_str(content_type)
                .unwrap_or(HeaderValue::from_static("application/octet-stream")),
            etag: ascii_value(format!("\"{tag}\"")),
            gzip_etag: ascii_value(format!("\"{gzip_tag}\"")),
            tag,
            gzip_tag,
            last_modified: last_modified_unix,
            last_modified_header: ascii_value(http_date(last_modified_unix)),
        }
    }

    /// The uncompressed bytes.
    pub fn identity(&self) -> &Bytes {
        &self.identity
    }

    /// The strong ETag of the identity variant, quotes included.
    pub fn etag(&self) -> &str {
        self.etag.to_str().unwrap_or_default()
    }

    /// When the resource last changed, in unix seconds.
    pub fn last_modified(&self) -> i64 {
        self.last_modified
    }

    /// Answers a GET or HEAD for this resource.
    ///
    /// * `304 Not Modified` when `If-None-Match` matches either variant's tag (weak
    ///   comparison; `*` matches), or, only when there is no `If-None-Match`, when
    ///   `If-Modified-Since` is not before `Last-Modified`. It carries `ETag`,
    ///   `Cache-Control`, `Last-Modified` and `Vary`, and no body.
    /// * Otherwise `200` with the gzip variant if `Accept-Encoding` prefers it, else
    ///   identity, plus `Content-Type`, `Content-Length` and (for gzip)
    ///   `Content-Encoding`. HEAD gets the same headers and an empty body.
    ///
    /// Conditions are evaluated only for GET and HEAD. `cache_control` is sent as given
    /// (omitted if it is not a valid header value). `Vary: Accept-Encoding` is always
    /// sent, so caches keep the variants apart.
    pub fn respond(&self, request: &Request, cache_control: &str) -> Response<Body> {
        let use_gzip = self.gzip.is_some() && prefers_gzip(&request.headers);
        let (body, etag) = match &self.gzip {
            Some(gzip) if use_gzip => (gzip, &self.gzip_etag),
            _ => (&self.identity, &self.etag),
        };
        let get_or_head = request.method == Method::GET || request.method == Method::HEAD;
        let not_modified = get_or_head
            && match if_none_match(&request.headers, &self.current_tags()) {
                Some(hit) => hit,
                None => not_modified_since(&request.headers, self.last_modified),
            };

        let mut response = Response::new(Body::default());
        let headers = response.headers_mut();
        self.validators(headers, etag, cache_control);
        if not_modified {
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            return response;
        }
        headers.insert(header::CONTENT_TYPE, self.content_type.clone());
        headers.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
        if use_gzip {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        }
        if request.method != Method::HEAD {
            *response.body_mut() = Body::new(body.clone());
        }
        response
    }

    fn current_tags(&self) -> Vec<&str> {
        match self.gzip {
            Some(_) => vec![&self.tag, &self.gzip_tag],
            None => vec![&self.tag],
        }
    }

    /// The headers shared by `200` and `304`.
    fn validators(&self, headers: &mut HeaderMap, etag: &HeaderValue, cache_control: &str) {
        headers.insert(header::ETAG, etag.clone());
        headers.insert(header::LAST_MODIFIED, self.last_modified_header.clone());
        headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        if let Ok(value) = HeaderValue::from_str(cache_control) {
            headers.insert(header::CACHE_CONTROL, value);
        }
    }
}

impl fmt::Debug for Representation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Representation")
            .field("etag", &self.etag)
            .field("content_type", &self.content_type)
            .field("identity_len", &self.identity.len())
            .field("gzip_len", &self.gzip.as_ref().map(Bytes::len))
            .field("last_modified", &self.last_modified)
            .finish()
    }
}

/// FNV-1a, 64-bit: a fast content hash, ample to tell dataset versions apart.
pub(crate) fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A header value from text this module built out of ASCII letters, digits, spaces,
/// quotes, commas, colons and dashes, which is always valid.
fn ascii_value(text: String) -> HeaderValue {
    HeaderValue::try_from(text).unwrap_or(HeaderValue::from_static(""))
}
