//! Reading CSV as a stream with `csv-core`, the parser of the `csv` crate without its
//! buffering (docs/methodology.md, section 1): double quotes, `""`, `\n` or `\r\n` line
//! ends and blank lines read as there, a leading byte order mark is ignored, and like the
//! `csv` crate it prefers a parse to none. [`Records`] holds one record at a time (at most
//! [`MAX_RECORD_BYTES`] of it); a record that is not UTF-8 is an error of that record
//! only, and every record says how many physical lines it spans.

use std::io::{self, BufRead, Chain, Cursor, Read};

use csv_core::{ReadRecordResult, Terminator};

/// The longest record kept (1 MiB of field bytes). A longer one (in practice a quote that
/// is never closed) is read to its end without being kept, and is an error.
pub(crate) const MAX_RECORD_BYTES: usize = 1 << 20;

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// The most fields a kept record may have: as many as there are bytes in
/// [`MAX_RECORD_BYTES`] for their end positions.
const MAX_FIELDS: usize = MAX_RECORD_BYTES / size_of::<usize>();

/// One record: the 1-based line it starts on, the lines it spans and its fields, or why
/// it cannot be read.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record<'a> {
    pub(crate) line: usize,
    /// The physical lines the record spans (at least 1): more than 1 when a quoted field
    /// holds line ends, in practice a quote opened by mistake that swallowed the lines up
    /// to the next quote.
    pub(crate) lines: usize,
    /// The line breaks inside its quoted fields: more than 0 for a record over several
    /// lines, and for a quote still open at the end of the input that took in the last
    /// line end.
    pub(crate) breaks: usize,
    pub(crate) fields: Result<&'a [String], String>,
}

/// The records of a CSV stream, one at a time.
pub(crate) struct Records<R> {
    input: Chain<Cursor<Vec<u8>>, R>,
    parser: csv_core::Reader,
    /// The current record's field bytes, one field after the other.
    output: Vec<u8>,
    /// Where each field of the current record ends in `output`.
    ends: Vec<usize>,
    /// The current record's fields (their buffers are reused).
    fields: Vec<String>,
    /// The line the next record starts on, once blank lines are skipped.
    line: usize,
}

/// What reading one record's bytes gave.
struct Scanned {
    /// False when the record was longer than [`MAX_RECORD_BYTES`] (or had more than
    /// [`MAX_FIELDS`] fields) and was not kept.
    kept: bool,
    /// Bytes of `output` used.
    output: usize,
    /// Entries of `ends` used.
    ends: usize,
    /// Line ends inside the record, its own included.
    newlines: usize,
    /// Whether the record ended at a line end of its own (not at the end of the input).
    terminated: bool,
    /// The record's last byte.
    last: Option<u8>,
}

impl<R: BufRead> Records<R> {
    /// Starts reading `input`, dropping a leading byte order mark.
    pub(crate) fn new(mut input: R) -> io::Result<Records<R>> {
        let mut head = Vec::with_capacity(BOM.len());
        (&mut input).take(BOM.len() as u64).read_to_end(&mut head)?;
        if head == BOM {
            head.clear();
        }
        let mut parser = csv_core::ReaderBuilder::new().terminator(Terminator::Any(b'\n')).build();
        // The parser would drop a byte order mark only when its first read holds all of
        // it; one is dropped above whatever the reads, so its own check is spent on a
        // blank line (skipped, its line taken back).
        let _ = parser.read_record(b"\n", &mut [0], &mut [0]);
        parser.set_line(1);
        Ok(Records {
            input: Cursor::new(head).chain(input),
            parser,
            output: vec![0; 1 << 10],
            ends: vec![0; 1 << 6],
            fields: Vec::new(),
            line: 1,
        })
    }

    /// The next record that is not blank, or `None` at the end of the input.
    pub(crate) fn next_record(&mut self) -> io::Result<Option<Record<'_>>> {
        loop {
            self.skip_blank_lines()?;
            let start = self.line;
            let Some(scanned) = self.read_record()? else { return Ok(None) };
            self.line += scanned.newlines;
            let lines = scanned.newlines + usize::from(scanned.last != Some(b'\n'));
            let breaks = scanned.newlines - usize::from(scanned.terminated);
            let fields = if scanned.kept {
                self.split(&scanned)
            } else {
                Err(format!(
                    "record longer than {MAX_RECORD_BYTES} bytes (a quote that is never closed?)"
                ))
            };
            let blank = fields.is_ok() && self.fields.len() == 1 && self.fields[0].is_empty();
            if !blank {
                let fields = fields.map(|()| self.fields.as_slice());
                return Ok(Some(Record { line: start, lines, breaks, fields }));
            }
        }
    }

    /// Drops the line ends (and carriage returns) before a record, counting the lines.
    fn skip_blank_lines(&mut self) -> io::Result<()> {
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            let blank = chunk.iter().take_while(|&&b| b == b'\n' || b == b'\r').count();
            self.line += chunk[..blank].iter().filter(|&&b| b == b'\n').count();
            let more = blank == chunk.len() && blank > 0;
            self.input.consume(blank);
            if !more {
                return Ok(());
            }
        }
    }

    /// Reads one record's fields into `output` and `ends`. `None` at the end of the
    /// input.
    fn read_record(&mut self) -> io::Result<Option<Scanned>> {
        let first_line = self.parser.line();
        let mut scanned =
            Scanned { kept: true, output: 0, ends: 0, newlines: 0, terminated: false, last: None };
        loop {
            let chunk = match self.input.fill_buf() {
                Ok(chunk) => chunk,
                Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(err),
            };
            let (result, read, written, ended) = self.parser.read_record(
                chunk,
                &mut self.output[scanned.output..],
                &mut self.ends[scanned.ends..],
            );
            if read > 0 {
                scanned.last = Some(chunk[read - 1]);
            }
            let at_end = chunk.is_empty();
            self.input.consume(read);
            scanned.output += written;
            scanned.ends += ended;
            match result {
                ReadRecordResult::InputEmpty if at_end => {
                    unreachable!("csv-core ends the last record at the end of the input")
                }
                ReadRecordResult::InputEmpty => {}
                ReadRecordResult::OutputFull => {
                    if scanned.kept && self.output.len() < MAX_RECORD_BYTES {
                        let len = (self.output.len() * 2).min(MAX_RECORD_BYTES);
                        self.output.resize(len, 0);
                    } else {
                        // Too long: read on to the record's end, keeping nothing.
                        scanned.kept = false;
                        scanned.output = 0;
                    }
                }
                ReadRecordResult::OutputEndsFull => {
                    if scanned.kept && self.ends.len() < MAX_FIELDS {
                        let len = (self.ends.len() * 2).min(MAX_FIELDS);
                        self.ends.resize(len, 0);
                    } else {
                        scanned.kept = false;
                        scanned.ends = 0;
                    }
                }
                ReadRecordResult::Record => {
                    scanned.newlines = (self.parser.line() - first_line) as usize;
                    scanned.terminated = !at_end;
                    return Ok(Some(scanned));
                }
                ReadRecordResult::End => return Ok(None),
            }
        }
    }

    /// The fields of a kept record into `fields`, reusing their buffers; the `\r` of a
    /// `\r\n` line end dropped. A field that is not UTF-8 makes the record an error.
    fn split(&mut self, scanned: &Scanned) -> Result<(), String> {
        let output = &self.output[..scanned.output];
        let ends = &self.ends[..scanned.ends];
        if self.fields.len() < ends.len() {
            self.fields.resize_with(ends.len(), String::new);
        }
        self.fields.truncate(ends.len());
        let mut start = 0;
        for (field, &end) in self.fields.iter_mut().zip(ends) {
            let text = std::str::from_utf8(&output[start..end])
                .map_err(|_| "the record is not valid UTF-8".to_owned())?;
            field.clear();
            field.push_str(text);
            start = end;
        }
        if let Some(last) = self.fields.last_mut()
            && last.ends_with('\r')
        {
            last.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
