//! Helpers shared by the unit tests.

use bytes::Bytes;
use hyper::{HeaderMap, Method, header::HeaderName, header::HeaderValue};

use crate::Request;

/// Header map from `(name, value)` pairs; a name may repeat.
pub(crate) fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(
            HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    map
}

/// A request for `/` with the given method and header pairs, and no body.
pub(crate) fn request(method: Method, pairs: &[(&str, &str)]) -> Request {
    Request {
        method,
        uri: hyper::Uri::from_static("/"),
        headers: headers(pairs),
        body: Bytes::new(),
        peer: ([127, 0, 0, 1], 1).into(),
    }
}
