//! Reading a request body without holding what nobody reads: `params.arguments` keeps the
//! members an [`ArgumentFilter`] names, and of the others a [`LeftOut`] count and the
//! first few names; what the envelope does not name is read and dropped ([`Skip`]).
//! Every value is still parsed, so a body is accepted or refused exactly as a
//! `serde_json::Value` read would, but the values nobody reads are built into nothing.

use std::{borrow::Cow, fmt};

use serde::{
    Deserializer,
    de::{DeserializeSeed, MapAccess, SeqAccess, Visitor},
};

use crate::{
    Field, Object,
    envelope::{Key, ReadObject},
    field::AN_OBJECT,
};

#[cfg(test)]
mod tests;

/// The members of an object that were read but not kept: only a request's
/// `params.arguments` read with an [`ArgumentFilter`] has any. Their values are gone;
/// what is left is how many there were and the first few names in sorted order, each
/// with how often it was sent: enough to say "unknown argument ..., and N more" without
/// holding every member of a hostile request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LeftOut<'a> {
    /// The smallest names, sorted, each once with how often it was sent.
    pub first: Vec<(Cow<'a, str>, usize)>,
    /// Every member left out, repeats included.
    pub count: usize,
}

impl<'a> LeftOut<'a> {
    /// Counts one more member `name`, remembering it when it is among the `named`
    /// smallest names so far. One comparison for most names, whatever the count: a
    /// name pushed out by a smaller one never comes back, since every name kept is
    /// smaller than it.
    #[inline]
    pub fn add(&mut self, name: Cow<'a, str>, named: usize) {
        self.add_times(name, 1, named);
    }

    /// [`LeftOut::add`] for a name sent `times` times.
    #[inline]
    pub fn add_times(&mut self, name: Cow<'a, str>, times: usize, named: usize) {
        self.count += times;
        if self.first.len() >= named
            && self.first.last().is_none_or(|(last, _)| sorts_after(&name, last))
        {
            return;
        }
        self.remember(name, times, named);
    }

    /// The rare part of [`LeftOut::add_times`]: `name` is among the `named` smallest so
    /// far.
    #[inline(never)]
    fn remember(&mut self, name: Cow<'a, str>, times: usize, named: usize) {
        match self.first.binary_search_by(|(listed, _)| listed.as_ref().cmp(name.as_ref())) {
            Ok(at) => self.first[at].1 += times,
            Err(at) => {
                self.first.insert(at, (name, times));
                self.first.truncate(named);
            }
        }
    }
}

/// Whether `name` sorts after `last` (as `str`'s order does): a byte loop rather than a
/// call to `memcmp`, since hostile requests make this comparison once per member and
/// names are short; a long shared prefix costs its length, once per member.
fn sorts_after(name: &str, last: &str) -> bool {
    let (name, last) = (name.as_bytes(), last.as_bytes());
    match name.iter().zip(last).find(|(a, b)| a != b) {
        Some((a, b)) => a > b,
        None => name.len() > last.len(),
    }
}

/// Which of `names` `name` is, deciding on the length and first byte where it can.
fn position(names: &[&str], name: &str) -> Option<usize> {
    names.iter().position(|named| {
        named.len() == name.len()
            && named.as_bytes().first() == name.as_bytes().first()
            && *named == name
    })
}

/// What a request keeps of its `params.arguments` object (see
/// [`crate::classify_any_era_filtered`]): the members named in `names`, each once with
/// the last value sent; of the others only a [`LeftOut`] count and the `named` smallest names. Every
/// value is still read, so a body is accepted or refused exactly as without the filter.
#[derive(Clone, Copy, Debug)]
pub struct ArgumentFilter<'k> {
    /// The argument names any method reads.
    pub names: &'k [&'k str],
    /// How many of the other names to remember.
    pub named: usize,
}

/// A request's `params.arguments`: with a filter, of the members it does not name only a
/// [`LeftOut`] count and the first names.
impl<'de> ReadObject<'de> for Object<'de> {
    fn read<A: MapAccess<'de>>(
        &mut self,
        mut map: A,
        filter: Option<ArgumentFilter<'_>>,
    ) -> Result<(), A::Error> {
        let object = self;
        let Some(filter) = filter else {
            while let Some(Key(name)) = map.next_key()? {
                object.members.push((name, map.next_value()?, 1));
            }
            return Ok(());
        };
        // Room for every name the filter keeps, once: no growing while they arrive.
        object.members.reserve_exact(filter.names.len());
        // The names kept so far, a bit for each of the filter's first 64: a name is looked
        // for among the members only when it was kept before.
        let mut kept = 0u64;
        while let Some(Key(name)) = map.next_key()? {
            let Some(at) = position(filter.names, &name) else {
                // Read through the same parser calls as a kept value, so that a body is
                // refused for the same errors, but built into nothing.
                map.next_value_seed(Skip::Value)?;
                object.left_out.add(name, filter.named);
                continue;
            };
            // Each name once, with the last value sent (what `get` answers), so that
            // repeats cannot make the object grow either.
            let value: Field<'de> = map.next_value()?;
            let bit = 1u64.checked_shl(at as u32).unwrap_or(0);
            let again = bit & kept == bit;
            kept |= bit;
            match object.members.iter_mut().find(|(kept, ..)| again && *kept == name) {
                Some((_, kept, sent)) => {
                    *kept = value;
                    *sent += 1;
                }
                None => object.members.push((name, value, 1)),
            }
        }
        Ok(())
    }
}

/// A value read and dropped: the parser is asked for exactly what [`Field`] asks for
/// (`deserialize_any`, and `deserialize_str` for an object key, as [`Key`] does), so it
/// accepts and refuses the same texts with the same errors, but nothing is built: no
/// number, no copied string, no vector. Its value is the JSON type name of what was read
/// (`an object`, `a string`, ...; [`crate::type_name`]'s words).
#[derive(Clone, Copy)]
pub(crate) enum Skip {
    Value,
    Key,
}

impl<'de> DeserializeSeed<'de> for Skip {
    type Value = &'static str;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        match self {
            Skip::Value => deserializer.deserialize_any(self),
            Skip::Key => deserializer.deserialize_str(self),
        }
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = &'static str;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<&'static str, E> {
        Ok("a boolean")
    }

    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<&'static str, E> {
        Ok("a number")
    }

    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<&'static str, E> {
        Ok("a number")
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<&'static str, E> {
        Ok("a number")
    }

    // Borrowed and owned strings come here too (serde's default forwarding).
    fn visit_str<E: serde::de::Error>(self, _: &str) -> Result<&'static str, E> {
        Ok("a string")
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<&'static str, E> {
        Ok("null")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<&'static str, E> {
        Ok("null")
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<&'static str, D::Error> {
        Skip::Value.deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<&'static str, A::Error> {
        while seq.next_element_seed(Skip::Value)?.is_some() {}
        Ok("an array")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<&'static str, A::Error> {
        while map.next_key_seed(Skip::Key)?.is_some() {
            map.next_value_seed(Skip::Value)?;
        }
        Ok(AN_OBJECT)
    }
}
