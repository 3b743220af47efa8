//! A precomputed representation of one resource, served with conditional GET and gzip.

use std::{
    fmt,
    time::{Duration, SystemTime},
};

use bytes::Bytes;
use hyper::{
    Method, Response, StatusCode,
    header::{self, HeaderMap, HeaderValue},
};

use crate::{
    Body, Request,
    conditional::{if_none_match, matches_line, not_modified_since},
    encoding::{Codings, gzip, gzip_fast, prefers_gzip},
    responses::with_prebuilt_headers,
};

#[cfg(test)]
mod tests;

/// One resource's bytes with everything a response needs, computed once per dataset.
///
/// Construction hashes the bytes into a strong ETag (`"<16 hex digits>"`, FNV-1a 64)
/// and compresses them with gzip; the gzip variant has its own strong tag (the same
/// with `-gz` inside the quotes). The header block of every answer (200, HEAD and 304,
/// each variant) is built then too, so serving is one header-map clone, the
/// `Cache-Control` value set in its slot and a cheap clone of shared bytes. If gzip
/// would not shrink the body, only the identity variant exists.
#[derive(Clone)]
pub struct Representation {
    identity: Variant,
    gzip: Option<Variant>,
    last_modified: i64,
}

/// One coding of a representation: its bytes, its opaque tag and its header blocks.
#[derive(Clone)]
struct Variant {
    body: Bytes,
    /// The opaque tag, unquoted.
    tag: String,
    /// `ETag`, `Last-Modified`, `Vary` and a `Cache-Control` slot: the 304 headers.
    not_modified: HeaderMap,
    /// The 304 headers plus `Content-Type` and, for gzip, `Content-Encoding`: a GET's
    /// headers, whose `Content-Length` hyper writes from the body it sends.
    ok: HeaderMap,
    /// The GET headers plus the `Content-Length` a GET's body has: a HEAD's.
    head: HeaderMap,
}

/// Placeholder of the `Cache-Control` slot, the first field of every header block, which
/// each answer overwrites in place (no hashing, no growing the map).
const CACHE_CONTROL_SLOT: HeaderValue = HeaderValue::from_static("no-cache");

impl Variant {
    fn new(
        body: Bytes,
        tag: String,
        content_type: &HeaderValue,
        last_modified: &HeaderValue,
        encoding: Option<&'static str>,
    ) -> Variant {
        let mut not_modified = HeaderMap::with_capacity(12);
        not_modified.insert(header::CACHE_CONTROL, CACHE_CONTROL_SLOT);
        not_modified.insert(header::ETAG, ascii_value(format!("\"{tag}\"")));
        not_modified.insert(header::LAST_MODIFIED, last_modified.clone());
        not_modified.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        let mut ok = not_modified.clone();
        ok.insert(header::CONTENT_TYPE, content_type.clone());
        if let Some(encoding) = encoding {
            ok.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
        }
        let mut head = ok.clone();
        head.insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
        Variant { body, tag, not_modified, ok, head }
    }
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
        let content_type = HeaderValue::from_str(content_type)
            .unwrap_or(HeaderValue::from_static("application/octet-stream"));
        let last_modified = ascii_value(http_date(last_modified_unix));
        let gzip = gzip(&identity).map(|body| {
            Variant::new(body, format!("{tag}-gz"), &content_type, &last_modified, Some("gzip"))
        });
        Representation {
            identity: Variant::new(identity, tag, &content_type, &last_modified, None),
            gzip,
            last_modified: last_modified_unix,
        }
    }

    /// [`Representation::new`] for a body built for one `request` (a query's answer):
    /// compressed, at the fastest level, only when the request prefers gzip and its
    /// `If-None-Match` does not already match, since no other request reuses it. Its
    /// tags are those [`Representation::new`] gives the same bytes.
    pub fn for_request(
        identity: Bytes,
        content_type: &'static str,
        last_modified_unix: i64,
        request: &Request,
    ) -> Representation {
        let tag = format!("{:016x}", fnv1a64(&identity));
        let content_type = HeaderValue::from_str(content_type)
            .unwrap_or(HeaderValue::from_static("application/octet-stream"));
        let last_modified = ascii_value(http_date(last_modified_unix));
        let gzip_tag = format!("{tag}-gz");
        let get_or_head = request.method == Method::GET || request.method == Method::HEAD;
        let hit = get_or_head && if_none_match(&request.headers, &[&tag, &gzip_tag]) == Some(true);
        let body = match (prefers_gzip(&request.headers), hit) {
            (false, _) => None,
            // The answer is a 304: the variant's tag is sent, never its bytes.
            (true, true) => Some(Bytes::new()),
            (true, false) => gzip_fast(&identity),
        };
        let gzip = body
            .map(|body| Variant::new(body, gzip_tag, &content_type, &last_modified, Some("gzip")));
        Representation {
            identity: Variant::new(identity, tag, &content_type, &last_modified, None),
            gzip,
            last_modified: last_modified_unix,
        }
    }

    /// Lets `add` set header fields sent with every answer (200 and 304) for this
    /// resource, such as CORS fields or a wider `Vary`; it runs once per prebuilt header
    /// block, never per request.
    pub fn with_headers(mut self, add: impl Fn(&mut HeaderMap)) -> Representation {
        for variant in std::iter::once(&mut self.identity).chain(&mut self.gzip) {
            add(&mut variant.not_modified);
            add(&mut variant.ok);
            add(&mut variant.head);
        }
        self
    }

    /// The uncompressed bytes.
    pub fn identity(&self) -> &Bytes {
        &self.identity.body
    }

    /// The strong ETag of the identity variant, quotes included.
    pub fn etag(&self) -> &str {
        self.identity.not_modified.get(header::ETAG).and_then(|v| v.to_str().ok()).unwrap_or("")
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
    ///   `Cache-Control`, `Last-Modified` and `Vary` (and any [`Self::with_headers`]
    ///   fields), and no body.
    /// * Otherwise `200` with the gzip variant if `Accept-Encoding` prefers it, else
    ///   identity, plus `Content-Type` and (for gzip) `Content-Encoding`; hyper adds
    ///   the body's `Content-Length`. HEAD gets the same headers with that
    ///   `Content-Length` and an empty body.
    ///
    /// Conditions are evaluated only for GET and HEAD. `cache_control` is sent as given.
    /// `Vary: Accept-Encoding` is always sent, so caches keep the variants apart.
    pub fn respond(&self, request: &Request, cache_control: &HeaderValue) -> Response<Body> {
        let asked = Asked::read(&request.headers, &self.current_tags());
        let variant = match &self.gzip {
            Some(gzip) if asked.codings.prefers_gzip() => gzip,
            _ => &self.identity,
        };
        let get_or_head = request.method == Method::GET || request.method == Method::HEAD;
        let not_modified = get_or_head
            && match asked.if_none_match {
                Some(hit) => hit,
                None => not_modified_since(asked.if_modified_since, self.last_modified),
            };

        let mut response = match not_modified {
            true => with_prebuilt_headers(
                StatusCode::NOT_MODIFIED,
                Body::default(),
                variant.not_modified.clone(),
            ),
            false if request.method == Method::HEAD => {
                with_prebuilt_headers(StatusCode::OK, Body::default(), variant.head.clone())
            }
            false => with_prebuilt_headers(
                StatusCode::OK,
                Body::new(variant.body.clone()),
                variant.ok.clone(),
            ),
        };
        match response.headers_mut().iter_mut().next() {
            Some((name, slot)) if name == header::CACHE_CONTROL => *slot = cache_control.clone(),
            // A `with_headers` that removed fields may have moved the slot.
            _ => drop(response.headers_mut().insert(header::CACHE_CONTROL, cache_control.clone())),
        }
        response
    }

    /// Both variants' opaque tags (the identity tag twice when there is no gzip).
    fn current_tags(&self) -> [&str; 2] {
        let identity = self.identity.tag.as_str();
        [identity, self.gzip.as_ref().map_or(identity, |gzip| gzip.tag.as_str())]
    }
}

/// What an answer reads of a request's header fields, found in one pass over them: a
/// request carries a few fields, and the pass costs less than a hashed look-up of each.
struct Asked<'h> {
    /// `Accept-Encoding`.
    codings: Codings,
    /// `If-None-Match`: whether a line lists a current tag; `None` without the field.
    if_none_match: Option<bool>,
    /// The first `If-Modified-Since` line.
    if_modified_since: Option<&'h HeaderValue>,
}

impl<'h> Asked<'h> {
    fn read(headers: &'h HeaderMap, current: &[&str]) -> Asked<'h> {
        let mut asked =
            Asked { codings: Codings::default(), if_none_match: None, if_modified_since: None };
        for (name, value) in headers {
            if *name == header::ACCEPT_ENCODING {
                asked.codings.add(value);
            } else if *name == header::IF_NONE_MATCH {
                let hit = asked.if_none_match == Some(true) || matches_line(value, current);
                asked.if_none_match = Some(hit);
            } else if *name == header::IF_MODIFIED_SINCE && asked.if_modified_since.is_none() {
                asked.if_modified_since = Some(value);
            }
        }
        asked
    }
}

impl fmt::Debug for Representation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Representation")
            .field("etag", &self.etag())
            .field("content_type", &self.identity.ok.get(header::CONTENT_TYPE))
            .field("identity_len", &self.identity.body.len())
            .field("gzip_len", &self.gzip.as_ref().map(|gzip| gzip.body.len()))
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

/// `Last-Modified`: unix seconds as an IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`
/// (an instant before 1970 shows as 1970: a snapshot is never that old).
fn http_date(unix_seconds: i64) -> String {
    let since_epoch = Duration::from_secs(u64::try_from(unix_seconds).unwrap_or(0));
    httpdate::fmt_http_date(SystemTime::UNIX_EPOCH + since_epoch)
}
