//! `PriceContent` written by hand: the bytes serde writes for it (with
//! [`crate::number::JsonNumbers`]), and at the same time those bytes escaped for the
//! result's JSON text item, without escaping every key on every request. The members
//! come from the one list of `PriceContent`'s fields (`json_object!`).

use super::PriceContent;
use crate::object_writer::ObjectWriter;

impl PriceContent<'_> {
    /// The object as compact JSON (the same bytes as `number::to_json(self)`), and that
    /// JSON escaped as the contents of a JSON string (what `jsonrpc::write_str_contents`
    /// makes of it), written together. The escaped copy stays bytes: it is only ever
    /// copied into a response.
    pub(crate) fn to_json_and_escaped(&self) -> (String, Vec<u8>) {
        let (mut out, mut escaped) = (Vec::with_capacity(768), Vec::with_capacity(896));
        let mut o = ObjectWriter::new(&mut out, &mut escaped);
        self.write_members(&mut o);
        o.finish();
        // Only UTF-8 goes in: escaped strings, ASCII keys, digits, punctuation.
        (crate::number::into_text(out), escaped)
    }
}
