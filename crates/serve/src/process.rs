//! What every binary does around a service: bind the listen address with an error that
//! names it, and report a fatal error with its causes, the same way in all three.

use std::{error::Error, fmt, io, net::SocketAddr};

use tokio::net::{TcpListener, TcpSocket};

#[cfg(test)]
mod tests;

/// Connections the kernel completes and queues before the server accepts them: a full
/// server's default `--max-connections`, where a burst past the standard library's 128
/// loses SYNs, each a second's wait for its client (docs/reliability.md). The kernel
/// lowers it to `net.core.somaxconn` where that is smaller.
pub(crate) const LISTEN_BACKLOG: u32 = 1024;

/// Binds `addr` with address reuse (a restart binds at once, with the old connections
/// still in `TIME_WAIT`) and a `LISTEN_BACKLOG`-deep (1024) accept queue; the error names the
/// address (`cannot listen on 127.0.0.1:8080`, caused by the operating system's reason).
pub async fn bind(addr: SocketAddr) -> Result<TcpListener, BindError> {
    let listen = || {
        let socket = match addr {
            SocketAddr::V4(_) => TcpSocket::new_v4()?,
            SocketAddr::V6(_) => TcpSocket::new_v6()?,
        };
        socket.set_reuseaddr(true)?;
        socket.bind(addr)?;
        socket.listen(LISTEN_BACKLOG)
    };
    listen().map_err(|source| BindError { addr, source })
}

/// A listen address that could not be bound.
#[derive(Debug)]
pub struct BindError {
    addr: SocketAddr,
    source: io::Error,
}

impl fmt::Display for BindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot listen on {}", self.addr)
    }
}

impl Error for BindError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        Some(&self.source)
    }
}

/// A fatal error as a binary reports it: the message once, then each cause of its
/// `source()` chain that adds something, one `  caused by: ` line each. A cause whose text
/// the lines above already hold (many messages embed their source) is left out.
#[derive(Debug, Clone, Copy)]
pub struct ErrorReport<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for ErrorReport<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut said = self.0.to_string();
        f.write_str(&said)?;
        let mut cause = self.0.source();
        while let Some(error) = cause {
            let text = error.to_string();
            if !said.contains(&text) {
                write!(f, "\n  caused by: {text}")?;
                said.push('\n');
                said.push_str(&text);
            }
            cause = error.source();
        }
        Ok(())
    }
}

/// Whether `error` or one of its causes is a write to a closed pipe (`dcx ... | head`):
/// the reader has all it wants, so the program ends quietly rather than reporting it.
pub fn is_broken_pipe(error: &(dyn Error + 'static)) -> bool {
    std::iter::successors(Some(error), |&error| error.source()).any(|error| {
        error.downcast_ref::<io::Error>().is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
