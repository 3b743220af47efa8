//! Helpers shared by the unit tests.

use std::sync::{
    Arc,
    atomic::{AtomicUsize, Ordering},
};

use bytes::Bytes;
use hyper::{HeaderMap, Method, Response};

use crate::{Body, Request};

/// Header map from `(name, value)` pairs; a name may repeat.
pub(crate) fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    Request::new(Method::GET, "/", pairs).headers
}

/// The value of the header `name` of `response`, as text.
pub(crate) fn header<'r>(response: &'r Response<Body>, name: &str) -> Option<&'r str> {
    response.headers().get(name).map(|value| value.to_str().unwrap())
}

/// The whole body of `response`: a `Full` body, polled to its end without a runtime.
pub(crate) fn body(response: Response<Body>) -> Bytes {
    let mut body = std::pin::pin!(response.into_body());
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let mut out = Vec::new();
    while let std::task::Poll::Ready(Some(frame)) =
        hyper::body::Body::poll_frame(body.as_mut(), &mut cx)
    {
        out.extend_from_slice(frame.unwrap().data_ref().unwrap());
    }
    Bytes::from(out)
}

/// `compressed` decoded from gzip.
pub(crate) fn gunzip(compressed: &[u8]) -> Vec<u8> {
    let mut decoded = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(compressed), &mut decoded)
        .unwrap();
    decoded
}

/// A task's waker that counts its wake-ups.
#[derive(Default)]
pub(crate) struct WakeCount(pub(crate) AtomicUsize);

impl std::task::Wake for WakeCount {
    fn wake(self: Arc<Self>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}
