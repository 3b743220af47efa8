//! CORS for public, credential-free resources: any origin may read.

use hyper::{
    HeaderMap, Response, StatusCode,
    header::{self, HeaderValue},
};

use crate::{Body, Request};

#[cfg(test)]
mod tests;

/// Lets any origin read a response with these `headers`: `Access-Control-Allow-Origin:
/// *`, and exposes the headers a polling client needs (`ETag`, `Last-Modified`,
/// `Content-Length`).
pub fn cors_any_origin(headers: &mut HeaderMap) {
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    headers.insert(
        header::ACCESS_CONTROL_EXPOSE_HEADERS,
        HeaderValue::from_static("ETag, Last-Modified, Content-Length"),
    );
}

/// Answers a CORS preflight (`OPTIONS`) with `204 No Content`.
///
/// Any origin is allowed: the request's `Origin` is echoed back (or `*` when it has
/// none), hence `Vary: Origin`. `allow_methods` and `allow_headers` are sent as given
/// (each omitted if it is not a valid header value), with `Max-Age: max_age_secs`.
pub fn preflight(
    request: &Request,
    allow_methods: &str,
    allow_headers: &str,
    max_age_secs: u32,
) -> Response<Body> {
    let mut response = Response::new(Body::default());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let origin =
        request.headers.get(header::ORIGIN).cloned().unwrap_or(HeaderValue::from_static("*"));
    let headers = response.headers_mut();
    headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
    if let Ok(value) = HeaderValue::from_str(allow_methods) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, value);
    }
    if let Ok(value) = HeaderValue::from_str(allow_headers) {
        headers.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, value);
    }
    headers.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from(max_age_secs));
    headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    response
}
