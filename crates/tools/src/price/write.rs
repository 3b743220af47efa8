//! `PriceContent` written by hand: the bytes serde writes for it (with
//! [`crate::number::JsonNumbers`]), and at the same time those bytes escaped for the
//! result's JSON text item, without escaping every key on every request.

use super::{CaratBand, PriceContent, Range};
use crate::object_writer::{Key, ObjectWriter, key};

impl PriceContent<'_> {
    /// The object as compact JSON (the same bytes as `number::to_json(self)`), and that
    /// JSON escaped as the contents of a JSON string (what `jsonrpc::write_str_contents`
    /// makes of it), written together. The escaped copy stays bytes: it is only ever
    /// copied into a response.
    pub(crate) fn to_json_and_escaped(&self) -> (String, Vec<u8>) {
        let (mut out, mut escaped) = (Vec::with_capacity(768), Vec::with_capacity(896));
        let mut o = ObjectWriter::new(&mut out, &mut escaped);
        self.write(&mut o);
        o.finish();
        // Only UTF-8 goes in: escaped strings, ASCII keys, digits, punctuation.
        (crate::number::into_text(out), escaped)
    }

    fn write(&self, o: &mut ObjectWriter<'_>) {
        o.str(key!("shape"), self.shape);
        o.f64(key!("carat"), self.carat);
        o.str(key!("color"), self.color);
        o.str(key!("clarity"), self.clarity);
        o.f64(key!("shape_ratio"), self.shape_ratio);
        o.f64(key!("per_carat_usd"), self.per_carat_usd);
        o.f64(key!("total_usd"), self.total_usd);
        o.str(key!("tracking_url"), &self.tracking_url);
        o.str(key!("as_of"), self.as_of);
        o.str(key!("base_matrix"), self.base_matrix);
        o.f64(key!("base_per_carat_usd"), self.base_per_carat_usd);
        range(o, key!("supported_ratio_range"), self.supported_ratio_range.as_ref());
        range(o, key!("observed_ratio_range"), self.observed_ratio_range.as_ref());
        o.opt_f64(key!("price_adjustment_ratio"), self.price_adjustment_ratio);
        o.f64(key!("ratio_multiplier"), self.ratio_multiplier);
        o.bool(key!("preference_driven_ratio"), self.preference_driven_ratio);
        o.bool(key!("ratio_band_extrapolated"), self.ratio_band_extrapolated);
        match &self.ratio_band {
            Some(CaratBand { min_carat, max_carat }) => o.object(key!("ratio_band"), |band| {
                band.f64(key!("min_carat"), *min_carat);
                band.opt_f64(key!("max_carat"), *max_carat);
            }),
            None => o.null(key!("ratio_band")),
        }
    }
}

fn range(o: &mut ObjectWriter<'_>, key: Key, range: Option<&Range>) {
    match range {
        Some(Range { min, max }) => o.object(key, |r| {
            r.f64(key!("min"), *min);
            r.f64(key!("max"), *max);
        }),
        None => o.null(key),
    }
}
