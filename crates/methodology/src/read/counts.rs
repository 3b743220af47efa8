//! What reading and filtering did with the rows: counts by reason and the first few
//! examples. Rows are counted by physical line: a record over several lines counts once
//! per line it spans (see `read.rs`).

use serde::Serialize;

/// Why a row was not used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Reason {
    /// The row could not be read: broken quoting, a record over several lines (counted
    /// once per line), wrong field count, a missing required value, a number or grade
    /// word that is not one.
    Unparseable,
    /// The row reads but cannot be a real ask: non-positive or non-finite carat or
    /// price (`NaN`, `inf`), a per-carat ask outside `MIN_ASK_PER_CARAT..=MAX_ASK_PER_CARAT`,
    /// negative dimensions, an L/W ratio below 1, an observation date after the build
    /// date.
    Impossible,
    /// A real stone the index does not cover: carat outside 0.3..=6.0, grades outside
    /// D..M and FL..SI2, other shapes, cut/polish/symmetry below the top grade, some
    /// fluorescence, a laboratory other than GIA, an observation older than the window.
    OutOfScope,
    /// The same listing seen again (same `listing_id`, or without ids the same carat,
    /// grades, shape, cut and price).
    Duplicate,
}

/// Rows rejected, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Rejected {
    /// See [`Reason::Unparseable`].
    pub unparseable: u64,
    /// See [`Reason::Impossible`].
    pub impossible: u64,
    /// See [`Reason::OutOfScope`].
    pub out_of_scope: u64,
    /// See [`Reason::Duplicate`].
    pub duplicate: u64,
}

impl Rejected {
    /// All rejected rows.
    pub fn total(&self) -> u64 {
        self.unparseable + self.impossible + self.out_of_scope + self.duplicate
    }

    pub(crate) fn add(&mut self, reason: Reason, rows: u64) {
        match reason {
            Reason::Unparseable => self.unparseable += rows,
            Reason::Impossible => self.impossible += rows,
            Reason::OutOfScope => self.out_of_scope += rows,
            Reason::Duplicate => self.duplicate += rows,
        }
    }
}

/// How many examples of rejected rows are kept.
pub const MAX_EXAMPLES: usize = 20;

/// What reading (or filtering) did with the rows.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RowCounts {
    /// Data rows seen (the header not included), counted by physical line: a record over
    /// several lines counts once per line (see [`RowCounts::swallowed_lines`]).
    pub rows: u64,
    /// Rows passed on.
    pub accepted: u64,
    /// Rows rejected, by reason.
    pub rejected: Rejected,
    /// Lines swallowed into records that run over several lines (a stray quote), beyond
    /// each record's first line. Each is counted in `rows` and as unparseable, with one
    /// example per record (`lines 7-2006: unparseable: ...`).
    pub swallowed_lines: u64,
    /// The first few rejections, e.g. `line 7: out of scope: clarity I1`.
    pub examples: Vec<String>,
    /// Set when the header itself is unusable (every row is then unparseable), e.g.
    /// "header lacks column `shape`".
    pub header_problem: Option<String>,
    /// Things a person should know about how the input was read (e.g. the `diamonds`
    /// layout recognised from its header).
    pub notes: Vec<String>,
}

impl RowCounts {
    pub(crate) fn reject(&mut self, what: &str, line: usize, reason: Reason, why: &str) {
        self.reject_lines(what, line, 1, reason, why);
    }

    /// Rejects a record that spans `lines` physical lines from `line` on: it counts as
    /// `lines` rows, with one example.
    pub(super) fn reject_lines(
        &mut self,
        what: &str,
        line: usize,
        lines: usize,
        reason: Reason,
        why: &str,
    ) {
        let lines = lines.max(1);
        self.rejected.add(reason, lines as u64);
        self.swallowed_lines += lines as u64 - 1;
        if self.examples.len() < MAX_EXAMPLES {
            let label = match reason {
                Reason::Unparseable => "unparseable",
                Reason::Impossible => "impossible value",
                Reason::OutOfScope => "out of scope",
                Reason::Duplicate => "duplicate",
            };
            let place = match lines {
                1 => format!("{what} {line}"),
                _ => format!("{what}s {line}-{}", line + lines - 1),
            };
            self.examples.push(format!("{place}: {label}: {why}"));
        }
    }
}
