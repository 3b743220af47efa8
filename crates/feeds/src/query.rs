//! Query strings: `application/x-www-form-urlencoded` pairs, decoded by the
//! `form_urlencoded` crate.

#[cfg(test)]
mod tests;

/// The `name=value` pairs of `query` in order, percent-decoded, `+` read as a space.
///
/// Empty segments (`a=1&&b=2`) are skipped; a segment without `=` has an empty value.
/// Invalid escapes are kept literally and invalid UTF-8 is replaced, so decoding never
/// fails: the parameter checks that follow report anything odd.
pub(crate) fn pairs(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes())
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect()
}
