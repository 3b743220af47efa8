//! Helpers shared by the unit tests.

use hyper::{HeaderMap, Method};

use crate::Request;

/// Header map from `(name, value)` pairs; a name may repeat.
pub(crate) fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    Request::new(Method::GET, "/", pairs).headers
}
