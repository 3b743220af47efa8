//! Small JSON responses every service needs, and `Accept` sniffing.

use bytes::Bytes;
use hyper::{
    HeaderMap, Response, StatusCode,
    header::{self, HeaderValue},
};

use words::{clip, json_string};

use crate::{Body, qvalue::weighted};

#[cfg(test)]
mod tests;

/// A JSON response: `Content-Type: application/json`, `Cache-Control: no-store`.
///
/// `value_bytes` must already be serialized JSON; this crate has no serde.
pub fn json_response(status: StatusCode, value_bytes: Bytes) -> Response<Body> {
    let mut response = Response::new(Body::new(value_bytes));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A response whose header block was made beforehand (a clone of one kept for many
/// answers) and whose body is fresh. The empty map `Response::new` made holds no
/// allocation: it is forgotten rather than dropped.
pub fn with_prebuilt_headers(status: StatusCode, body: Body, headers: HeaderMap) -> Response<Body> {
    let mut response = Response::new(body);
    *response.status_mut() = status;
    std::mem::forget(std::mem::replace(response.headers_mut(), headers));
    response
}

/// `405 Method Not Allowed` with `Allow: <allow>` and a JSON body listing the methods:
/// `{"error":"method not allowed","allow":["GET","HEAD"]}` for `allow = "GET, HEAD"`.
pub fn method_not_allowed(allow: &str) -> Response<Body> {
    let methods: Vec<String> = allow
        .split(',')
        .map(str::trim)
        .filter(|method| !method.is_empty())
        .map(json_string)
        .collect();
    let body = format!(r#"{{"error":"method not allowed","allow":[{}]}}"#, methods.join(","));
    let mut response = json_response(StatusCode::METHOD_NOT_ALLOWED, Bytes::from(body));
    if let Ok(value) = HeaderValue::from_str(allow) {
        response.headers_mut().insert(header::ALLOW, value);
    }
    response
}

/// `404 Not Found` with a JSON body naming the path: `{"error":"not found","path":"/x"}`
/// (a path over [`words::CLIP_CHARS_MAX`] characters is cut, as [`words::quoted`] cuts it).
pub fn not_found(path: &str) -> Response<Body> {
    let body = format!(r#"{{"error":"not found","path":{}}}"#, json_string(&clip(path)));
    json_response(StatusCode::NOT_FOUND, Bytes::from(body))
}

/// Whether the `Accept` field lists one of the media `ranges` (as written, e.g.
/// `application/json` or `*/*`; ASCII case and parameters aside) with a non-zero weight.
/// The one `Accept` reader of the services: an element whose `q` is malformed (`q=abc`,
/// `q=2`) is not counted, as no weight can be read from it. Without an `Accept` field
/// nothing is listed; a caller decides what that means.
pub fn accepts(headers: &HeaderMap, ranges: &[&str]) -> bool {
    let mut listed = false;
    weighted(headers, &header::ACCEPT, |range, weight| {
        listed |=
            weight > 0 && ranges.iter().any(|wanted| range.eq_ignore_ascii_case(wanted.as_bytes()));
    });
    listed
}

/// Whether the `Accept` field lists `text/html` with a non-zero weight, i.e. the client
/// is probably a browser that would rather see a page.
pub fn accepts_html(headers: &HeaderMap) -> bool {
    accepts(headers, &["text/html"])
}

/// Why a request's body was refused before any handler saw the request. The plumbing
/// answers with [`BodyRefusal::status`] and closes the connection, since the rest of the
/// body is never read; a [`crate::Handler`] may shape the body of that answer
/// ([`crate::Handler::refuse_body`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyRefusal {
    /// The body was declared or sent over the limit: `413`.
    TooLarge {
        /// The limit, [`crate::Limits::max_body_bytes`].
        limit_bytes: usize,
    },
    /// Malformed chunking, or the client went away mid-body: `400`.
    Unreadable,
    /// The body was not whole within [`crate::Limits::body_read_timeout`] of the head:
    /// `408`.
    TimedOut {
        /// The limit in seconds (rounded up).
        limit_secs: u64,
    },
}

impl BodyRefusal {
    /// The status of the answer: `413`, `400` or `408`.
    pub fn status(self) -> StatusCode {
        match self {
            BodyRefusal::TooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            BodyRefusal::Unreadable => StatusCode::BAD_REQUEST,
            BodyRefusal::TimedOut { .. } => StatusCode::REQUEST_TIMEOUT,
        }
    }

    /// What went wrong, in words, for an error message.
    pub fn message(self) -> String {
        match self {
            BodyRefusal::TooLarge { limit_bytes } => {
                format!("request body too large: the limit is {limit_bytes} bytes")
            }
            BodyRefusal::Unreadable => {
                "request body unreadable: malformed chunked encoding, or the client stopped \
                 sending mid-body"
                    .to_owned()
            }
            BodyRefusal::TimedOut { limit_secs } => format!(
                "request body too slow: the whole body must arrive within {limit_secs} s of \
                 the request head"
            ),
        }
    }

    /// The plain JSON answer: `{"error":"payload too large","limit_bytes":N}`,
    /// `{"error":"unreadable request body"}` or
    /// `{"error":"request body not received in time","limit_secs":N}`.
    pub fn json_response(self) -> Response<Body> {
        let body = match self {
            BodyRefusal::TooLarge { limit_bytes } => Bytes::from(format!(
                r#"{{"error":"payload too large","limit_bytes":{limit_bytes}}}"#
            )),
            BodyRefusal::Unreadable => {
                Bytes::from_static(br#"{"error":"unreadable request body"}"#)
            }
            BodyRefusal::TimedOut { limit_secs } => Bytes::from(format!(
                r#"{{"error":"request body not received in time","limit_secs":{limit_secs}}}"#
            )),
        };
        json_response(self.status(), body)
    }
}

/// The plumbing's answer to a refused body: the handler's response with the refusal's
/// status, closing the connection.
pub(crate) fn refused_body(response: Response<Body>, refusal: BodyRefusal) -> Response<Body> {
    let mut response = closing(response);
    *response.status_mut() = refusal.status();
    response
}

/// The default body of a `429` for a request over its client's rate.
pub(crate) fn rate_limited_json(retry_after_secs: u64) -> Response<Body> {
    let body =
        format!(r#"{{"error":"rate limit exceeded","retry_after_secs":{retry_after_secs}}}"#);
    json_response(StatusCode::TOO_MANY_REQUESTS, Bytes::from(body))
}

/// The plumbing's answer over the rate: the handler's response with `429` and
/// `Retry-After`; the connection stays open (the request was read whole).
pub(crate) fn rate_limited(mut response: Response<Body>, retry_after_secs: u64) -> Response<Body> {
    *response.status_mut() = StatusCode::TOO_MANY_REQUESTS;
    let headers = response.headers_mut();
    headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    response
}

/// `400` for an HTTP/1.1 request without `Host`, or any request with several
/// (`repeated`): RFC 9112 section 3.2 requires exactly one. The connection closes, as for
/// any plumbing-level refusal.
pub(crate) fn bad_host(repeated: bool) -> Response<Body> {
    let body: &'static [u8] = match repeated {
        false => {
            br#"{"error":"bad request","message":"an HTTP/1.1 request must carry a Host header"}"#
        }
        true => {
            br#"{"error":"bad request","message":"a request must carry one Host header, not several"}"#
        }
    };
    closing(json_response(StatusCode::BAD_REQUEST, Bytes::from_static(body)))
}

/// Marks a plumbing-level error response (sent before any service saw the request):
/// the connection closes, and any origin may read the error, since it names no data,
/// so that browser clients see why they were refused.
fn closing(mut response: Response<Body>) -> Response<Body> {
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    response
}
