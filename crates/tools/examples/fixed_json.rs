//! The load-bench baseline: a bare hyper HTTP/1.1 server answering every request with the
//! same small JSON body, so `scripts/bench-tools.sh` can show what the tool server costs on
//! top of the socket and HTTP work. Prints `listening on http://ADDR` on stderr.
use std::{convert::Infallible, net::SocketAddr};

use bytes::Bytes;
use http_body_util::Full;
use hyper::{Request, Response, body::Incoming, header, server::conn::http1, service::service_fn};
use hyper_util::rt::TokioIo;

const BODY: &[u8] = br#"{"jsonrpc":"2.0","id":1,"result":{"resultType":"complete","content":[{"type":"text","text":"fixed"}]}}"#;

async fn answer(_request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let mut response = Response::new(Full::new(Bytes::from_static(BODY)));
    response
        .headers_mut()
        .insert(header::CONTENT_TYPE, header::HeaderValue::from_static("application/json"));
    Ok(response)
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let addr: SocketAddr =
        std::env::args().nth(1).unwrap_or_else(|| "127.0.0.1:0".to_owned()).parse().map_err(
            |err| std::io::Error::new(std::io::ErrorKind::InvalidInput, format!("address: {err}")),
        )?;
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("listening on http://{}", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        tokio::spawn(async move {
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), service_fn(answer))
                .await;
        });
    }
}
