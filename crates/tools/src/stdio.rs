//! The stdio transport: newline-delimited JSON-RPC in, one response line out per request,
//! nothing else on the output. Both eras, through the same [`Mcp::answer`] as HTTP.

use std::io::{self, BufRead, Write};

use jsonrpc::{ErrorObject, HeaderView, Transport};

use crate::mcp::{Mcp, Reply};

#[cfg(test)]
mod tests;

/// The longest message line read, as the HTTP body limit: 1 MiB.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// What happened to one line, for the caller's diagnostics (stderr).
#[derive(Debug, PartialEq, Eq)]
pub enum LineEvent {
    /// A response was written.
    Answered,
    /// A notification: nothing written.
    Accepted,
    /// The line was longer than [`MAX_LINE_BYTES`]; an error line was written.
    TooLong,
}

/// Serves `input` until it ends, writing each answer as one line to `output` and flushing
/// it. Blank lines are skipped; a line that is not JSON-RPC gets a JSON-RPC error line and
/// the loop goes on. `on_line` hears of each message. Returns at end of input; an error
/// means reading or writing failed (the host closed the pipes).
pub fn serve_stdio(
    mcp: &Mcp,
    mut input: impl BufRead,
    mut output: impl Write,
    mut on_line: impl FnMut(LineEvent),
) -> io::Result<()> {
    let mut line = Vec::new();
    loop {
        line.clear();
        let mut limited = io::Read::take(&mut input, MAX_LINE_BYTES as u64 + 1);
        let read = limited.read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(());
        }
        if line.len() > MAX_LINE_BYTES && line.last() != Some(&b'\n') {
            input.skip_until(b'\n')?;
            let error = ErrorObject::invalid_request(format!(
                "message too large: the limit is {MAX_LINE_BYTES} bytes per line"
            ));
            write_line(&mut output, jsonrpc::Response::err(None, error).to_json())?;
            on_line(LineEvent::TooLong);
            continue;
        }
        let message = trim_line(&line);
        if message.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match mcp.answer(Transport::Stdio, &HeaderView::default(), message) {
            Reply::Accepted => on_line(LineEvent::Accepted),
            Reply::Message(answer) => {
                write_line(&mut output, answer.body)?;
                on_line(LineEvent::Answered);
            }
        }
    }
}

/// The line without its `\n` or `\r\n`.
fn trim_line(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// One message line: the JSON (which never holds a raw newline) and its `\n` in one write,
/// flushed, so that a `LineWriter` (standard output's) makes one system call per message.
fn write_line(output: &mut impl Write, mut body: Vec<u8>) -> io::Result<()> {
    body.push(b'\n');
    output.write_all(&body)?;
    output.flush()
}
