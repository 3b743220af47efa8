//! Conditional requests (RFC 9110 section 13): `If-None-Match` and `If-Modified-Since`.

use std::time::SystemTime;

use hyper::{
    HeaderMap,
    header::{self, HeaderValue},
};

#[cfg(test)]
mod tests;

/// One entity-tag from a list, its opaque part without the quotes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct EntityTag<'a> {
    pub(crate) weak: bool,
    pub(crate) opaque: &'a str,
}

/// A parsed `If-None-Match` field line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum TagList<'a> {
    /// `*`: any current representation.
    Any,
    /// One or more entity-tags (possibly none, for an empty line).
    Tags(Vec<EntityTag<'a>>),
}

/// What `If-None-Match` says about a resource whose current tags are `current` (opaque
/// parts, unquoted): `None` if the field is absent, otherwise whether any listed tag
/// matches one of them under the weak comparison RFC 9110 requires for this field.
///
/// A field line that does not parse matches nothing.
pub(crate) fn if_none_match(headers: &HeaderMap, current: &[&str]) -> Option<bool> {
    let mut lines = headers.get_all(header::IF_NONE_MATCH).iter().peekable();
    lines.peek()?;
    Some(lines.any(|line| matches_line(line, current)))
}

/// Whether one `If-None-Match` field line lists one of the `current` tags ([`if_none_match`]).
pub(crate) fn matches_line(line: &HeaderValue, current: &[&str]) -> bool {
    match line.to_str().ok().and_then(parse_tag_list) {
        Some(TagList::Any) => true,
        Some(TagList::Tags(tags)) => tags.iter().any(|tag| current.contains(&tag.opaque)),
        None => false,
    }
}

/// Whether `If-Modified-Since` (its first field line, `since`) holds a valid HTTP-date
/// (any of the three forms RFC 9110 asks recipients to read) at or after `last_modified`
/// (both at one-second precision), i.e. the client's copy is still current.
pub(crate) fn not_modified_since(since: Option<&HeaderValue>, last_modified: i64) -> bool {
    since
        .and_then(|value| value.to_str().ok())
        .and_then(|text| httpdate::parse_http_date(text.trim()).ok())
        .and_then(|since| since.duration_since(SystemTime::UNIX_EPOCH).ok())
        .is_some_and(|since| last_modified <= i64::try_from(since.as_secs()).unwrap_or(i64::MAX))
}

/// Parses `"*"` or `#entity-tag`; `None` if the line is malformed.
pub(crate) fn parse_tag_list(line: &str) -> Option<TagList<'_>> {
    if line.trim() == "*" {
        return Some(TagList::Any);
    }
    let mut tags = Vec::new();
    let mut rest = line;
    loop {
        rest = rest.trim_start_matches([' ', '\t', ',']);
        if rest.is_empty() {
            return Some(TagList::Tags(tags));
        }
        let (weak, quoted) = match rest.strip_prefix("W/") {
            Some(quoted) => (true, quoted),
            None => (false, rest),
        };
        let inside = quoted.strip_prefix('"')?;
        let end = inside.find('"')?;
        let opaque = &inside[..end];
        if !opaque.bytes().all(|b| b == 0x21 || (0x23..=0x7e).contains(&b) || b >= 0x80) {
            return None;
        }
        tags.push(EntityTag { weak, opaque });
        rest = inside[end + 1..].trim_start_matches([' ', '\t']);
        if !(rest.is_empty() || rest.starts_with(',')) {
            return None;
        }
    }
}
