//! Unit tests for `crate::process`: the listener's accept queue, the error report and the
//! broken-pipe test.

use std::{error::Error, fmt, io, net::TcpStream, time::Duration};

use super::{BindError, ErrorReport, bind, is_broken_pipe};

/// An error with a message and an optional cause.
#[derive(Debug)]
struct Layer(&'static str, Option<Box<dyn Error + 'static>>);

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl Error for Layer {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        self.1.as_deref()
    }
}

#[test]
fn the_message_comes_once_then_each_distinct_cause() {
    let os = io::Error::new(io::ErrorKind::NotFound, "no such file or directory");
    let embedded = Layer("snap/matrix.json: no such file or directory", Some(Box::new(os)));
    let top = Layer("cannot load the snapshot", Some(Box::new(embedded)));
    assert_eq!(
        ErrorReport(&top).to_string(),
        "cannot load the snapshot\n  caused by: snap/matrix.json: no such file or directory"
    );
    let repeated =
        Layer("no such snapshot folder", Some(Box::new(Layer("no such snapshot folder", None))));
    assert_eq!(ErrorReport(&repeated).to_string(), "no such snapshot folder");
}

#[test]
fn a_bind_error_names_the_address_and_keeps_the_reason() {
    let error = BindError {
        addr: ([127, 0, 0, 1], 8080).into(),
        source: io::Error::new(io::ErrorKind::AddrInUse, "address already in use"),
    };
    assert_eq!(
        ErrorReport(&error).to_string(),
        "cannot listen on 127.0.0.1:8080\n  caused by: address already in use"
    );
}

#[test]
fn a_closed_pipe_is_found_anywhere_in_the_chain() {
    let pipe = io::Error::from(io::ErrorKind::BrokenPipe);
    assert!(is_broken_pipe(&pipe));
    assert!(is_broken_pipe(&Layer("writing the quote", Some(Box::new(pipe)))));
    assert!(!is_broken_pipe(&Layer("writing the quote", None)));
    assert!(!is_broken_pipe(&io::Error::from(io::ErrorKind::NotFound)));
}

/// The kernel's own cap on an accept queue (`net.core.somaxconn`).
fn somaxconn() -> u32 {
    let text = std::fs::read_to_string("/proc/sys/net/core/somaxconn").expect("somaxconn");
    text.trim().parse().expect("a number")
}

#[tokio::test(flavor = "current_thread")]
async fn a_burst_of_connections_waits_in_the_accept_queue() {
    // Nothing accepts: each connection the kernel completes is queued. With the standard
    // library's backlog of 128 the 130th SYN is dropped and its connect times out here.
    let listener = bind(([127, 0, 0, 1], 0).into()).await.expect("bind");
    let addr = listener.local_addr().expect("address");
    let burst = 400.min(somaxconn());
    assert!(burst > 130, "net.core.somaxconn is {burst}: too low to tell a queue of 128 apart");
    let mut held = Vec::new();
    for n in 0..burst {
        match TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
            Ok(stream) => held.push(stream),
            Err(err) => panic!("connection {} of {burst} was not queued: {err}", n + 1),
        }
    }
    assert_eq!(held.len(), usize::try_from(burst).expect("fits"));
}

#[tokio::test(flavor = "current_thread")]
async fn a_taken_address_is_named_in_the_error() {
    let first = bind(([127, 0, 0, 1], 0).into()).await.expect("bind");
    let addr = first.local_addr().expect("address");
    let error = bind(addr).await.expect_err("the address is taken");
    assert_eq!(error.to_string(), format!("cannot listen on {addr}"));
    let source = error.source().and_then(|source| source.downcast_ref::<io::Error>());
    assert_eq!(source.map(io::Error::kind), Some(io::ErrorKind::AddrInUse));
}
