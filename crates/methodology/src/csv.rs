//! A minimal RFC 4180 CSV reader, written by hand and read as a stream: comma-separated
//! fields, optional double quotes around a field, `""` for a quote inside a quoted field,
//! commas and line breaks allowed inside quotes, `\n` or `\r\n` line ends, blank lines
//! skipped, a leading byte order mark ignored.
//!
//! [`Records`] holds one record at a time (at most [`MAX_RECORD_BYTES`] of it), whatever
//! the size of the input; a record that is not UTF-8 is an error of that record only.
//! Every record says how many physical lines it spans, so a caller can count the lines a
//! stray quote swallowed into one record.

use std::io::{self, BufRead, Chain, Cursor, Read};

/// The longest record kept (1 MiB). A longer one (in practice a quote that is never
/// closed) is read to its end without being kept, and is an error.
pub(crate) const MAX_RECORD_BYTES: usize = 1 << 20;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// One record: the 1-based line it starts on, the lines it spans and its fields, or why
/// it cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record<'a> {
    pub(crate) line: usize,
    /// The physical lines the record spans (at least 1): more than 1 when a quoted field
    /// holds line ends, in practice a quote opened by mistake that swallowed the lines up
    /// to the next quote.
    pub(crate) lines: usize,
    pub(crate) fields: Result<&'a [String], String>,
}

/// Where the scan of a record stands, after the bytes seen so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Quoting {
    /// At the start of a field: a quote here opens a quoted field.
    FieldStart,
    /// Inside an unquoted field.
    Unquoted,
    /// Inside a quoted field.
    Quoted,
    /// Just after a quote inside a quoted field: a second quote is a literal quote,
    /// anything else closes the field.
    QuoteInQuoted,
    /// After the closing quote, before the next separator.
    AfterQuote,
}

impl Quoting {
    /// Scans `bytes`; returns the position of the line end that ends the record, if any.
    fn scan(&mut self, bytes: &[u8]) -> Option<usize> {
        use Quoting::*;
        for (i, &byte) in bytes.iter().enumerate() {
            *self = match (*self, byte) {
                (Quoted, b'"') => QuoteInQuoted,
                (Quoted, _) => Quoted,
                (QuoteInQuoted, b'"') | (FieldStart, b'"') => Quoted,
                (_, b',') => FieldStart,
                (_, b'\n') => return Some(i),
                (FieldStart | Unquoted, _) => Unquoted,
                (QuoteInQuoted | AfterQuote, _) => AfterQuote,
            };
        }
        None
    }
}

/// The records of a CSV stream, one at a time.
pub(crate) struct Records<R> {
    input: Chain<Cursor<Vec<u8>>, R>,
    /// The current record's bytes.
    bytes: Vec<u8>,
    /// The current record's fields (their buffers are reused).
    fields: Vec<String>,
    /// The line the next record starts on.
    line: usize,
}

impl<R: BufRead> Records<R> {
    /// Starts reading `input`, dropping a leading byte order mark.
    pub(crate) fn new(mut input: R) -> io::Result<Records<R>> {
        let mut head = Vec::with_capacity(BOM.len());
        (&mut input).take(BOM.len() as u64).read_to_end(&mut head)?;
        if head == BOM {
            head.clear();
        }
        Ok(Records {
            input: Cursor::new(head).chain(input),
            bytes: Vec::new(),
            fields: Vec::new(),
            line: 1,
        })
    }

    /// The next record that is not blank, or `None` at the end of the input.
    pub(crate) fn next_record(&mut self) -> io::Result<Option<Record<'_>>> {
        loop {
            let start = self.line;
            let Some((complete, lines)) = self.read_record()? else { return Ok(None) };
            let fields = if !complete {
                Err(format!(
                    "record longer than {MAX_RECORD_BYTES} bytes (a quote that is never closed?)"
                ))
            } else {
                match std::str::from_utf8(&self.bytes) {
                    Ok(text) => split(text, &mut self.fields),
                    Err(_) => Err("the record is not valid UTF-8".to_owned()),
                }
            };
            let blank = fields.is_ok() && self.fields.len() == 1 && self.fields[0].is_empty();
            if !blank {
                let fields = fields.map(|()| self.fields.as_slice());
                return Ok(Some(Record { line: start, lines, fields }));
            }
        }
    }

    /// Reads the bytes of one record (up to and including its line end) into
    /// `self.bytes`, counting its lines. `None` at the end of the input, else whether the
    /// record was kept (false when it was longer than [`MAX_RECORD_BYTES`]) and the
    /// physical lines it spans: its line ends, plus one for a last line without one.
    fn read_record(&mut self) -> io::Result<Option<(bool, usize)>> {
        self.bytes.clear();
        let mut quoting = Quoting::FieldStart;
        let (mut kept, mut newlines, mut last) = (true, 0, None);
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            if chunk.is_empty() {
                return Ok(last.map(|last| (kept, newlines + usize::from(last != b'\n'))));
            }
            let end = quoting.scan(chunk);
            let taken = &chunk[..end.map_or(chunk.len(), |i| i + 1)];
            let breaks = taken.iter().filter(|&&b| b == b'\n').count();
            self.line += breaks;
            newlines += breaks;
            last = taken.last().copied();
            if kept && self.bytes.len() + taken.len() <= MAX_RECORD_BYTES {
                self.bytes.extend_from_slice(taken);
            } else {
                kept = false;
                self.bytes.clear();
            }
            let taken = taken.len();
            self.input.consume(taken);
            if end.is_some() {
                return Ok(Some((kept, newlines)));
            }
        }
    }
}

/// Splits the text of one record (its line end included, if any) into `fields`,
/// reusing their buffers. A broken quote is an `Err` with the reason.
fn split(text: &str, fields: &mut Vec<String>) -> Result<(), String> {
    let bytes = text.as_bytes();
    let mut count = 0;
    let mut pos = 0;
    let mut error = None;
    loop {
        if count == fields.len() {
            fields.push(String::new());
        }
        let field = &mut fields[count];
        field.clear();
        count += 1;
        if bytes.get(pos) == Some(&b'"') {
            pos += 1;
            let mut closed = false;
            while pos < bytes.len() {
                let run = text[pos..].find('"').map_or(bytes.len(), |i| pos + i);
                field.push_str(&text[pos..run]);
                pos = run;
                if pos >= bytes.len() {
                    break;
                }
                if bytes.get(pos + 1) == Some(&b'"') {
                    field.push('"');
                    pos += 2;
                } else {
                    pos += 1;
                    closed = true;
                    break;
                }
            }
            if !closed {
                error.get_or_insert_with(|| "unterminated quoted field".to_owned());
            }
            // Anything between the closing quote and the next separator is an error.
            let end = next_separator(bytes, pos);
            if end > pos && text[pos..end].trim() != "" {
                error.get_or_insert_with(|| "text after a closing quote".to_owned());
            }
            pos = end;
        } else {
            let end = next_separator(bytes, pos);
            let raw = &text[pos..end];
            if raw.contains('"') {
                error.get_or_insert_with(|| "quote inside an unquoted field".to_owned());
            }
            field.push_str(raw.strip_suffix('\r').unwrap_or(raw));
            pos = end;
        }
        if bytes.get(pos) == Some(&b',') {
            pos += 1;
        } else {
            break;
        }
    }
    fields.truncate(count);
    error.map_or(Ok(()), Err)
}

/// The position of the next `,` or `\n` at or after `pos` (or the end).
fn next_separator(bytes: &[u8], pos: usize) -> usize {
    bytes[pos..].iter().position(|&b| b == b',' || b == b'\n').map_or(bytes.len(), |i| pos + i)
}

#[cfg(test)]
mod tests;
