//! A small RFC 4180 reader, written by hand: comma-separated fields, optional double
//! quotes around a field, `""` for a quote inside a quoted field, commas and line breaks
//! allowed inside quotes, `\n` or `\r\n` line ends, blank lines skipped.

/// One record: its fields and the 1-based line it starts on.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Record {
    pub(crate) line: usize,
    pub(crate) fields: Result<Vec<String>, String>,
}

/// Splits `text` into records. A record with a broken quote is returned as an `Err`
/// with the reason, and reading goes on with the next line.
pub(crate) fn records(text: &str) -> Vec<Record> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    let mut line = 1;
    while pos < bytes.len() {
        let start_line = line;
        let (fields, next, lines) = record(text, pos);
        pos = next;
        line += lines;
        let blank = matches!(&fields, Ok(f) if f.len() == 1 && f[0].is_empty());
        if !blank {
            out.push(Record { line: start_line, fields });
        }
    }
    out
}

/// Reads one record starting at `pos`: its fields, the position after its line end and
/// the number of line breaks consumed.
fn record(text: &str, mut pos: usize) -> (Result<Vec<String>, String>, usize, usize) {
    let bytes = text.as_bytes();
    let mut fields = Vec::new();
    let mut lines = 0;
    let mut error = None;
    loop {
        let mut field = String::new();
        if bytes.get(pos) == Some(&b'"') {
            pos += 1;
            let mut closed = false;
            while pos < bytes.len() {
                let run = text[pos..].find('"').map_or(bytes.len(), |i| pos + i);
                let chunk = &text[pos..run];
                lines += chunk.matches('\n').count();
                field.push_str(chunk);
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
        fields.push(field);
        match bytes.get(pos) {
            Some(b',') => pos += 1,
            Some(b'\n') => {
                lines += 1;
                pos += 1;
                break;
            }
            _ => break,
        }
    }
    (error.map_or(Ok(fields), Err), pos, lines)
}

/// The position of the next `,` or `\n` at or after `pos` (or the end).
fn next_separator(bytes: &[u8], pos: usize) -> usize {
    bytes[pos..].iter().position(|&b| b == b',' || b == b'\n').map_or(bytes.len(), |i| pos + i)
}

#[cfg(test)]
mod tests;
