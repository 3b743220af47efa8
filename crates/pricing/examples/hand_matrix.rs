//! The pricing math alone: builds a small valid price matrix and an oval ratio model by
//! hand, then quotes a round and an oval stone from them. No feeds, no files.
//!
//! Run it with `cargo run -p dcx-pricing --example hand_matrix`.

use std::{error::Error, io::Write};

use pricing::{
    BaseMatrix, Clarity, Color, PriceMatrix, PricingSet, QuoteRequest, RatioBand, RatioModel,
    RatioModels, RatioPoint, Shape, Slider, ValueMode, round_cents,
};

fn main() -> Result<(), Box<dyn Error>> {
    // Two carat bands are the fewest a matrix takes; together they must span the priced
    // range, 0.3 to 6 ct. Between bands the per-carat price is log-linear in carat.
    let bands = vec![pricing::CARAT_MIN, pricing::CARAT_MAX];
    // Every colour x clarity cell of each band: its ln per-carat price, D FL dearest,
    // each grade step below it 5 % cheaper.
    let mut ln_per_carat = Vec::new();
    for d_fl_per_carat in [2_000.0_f64, 60_000.0] {
        for color in Color::ALL {
            for clarity in Clarity::ALL {
                let steps = (color.index() + clarity.index()) as i32;
                ln_per_carat.push((d_fl_per_carat * 0.95_f64.powi(steps)).ln());
            }
        }
    }
    let round = PriceMatrix::new(bands, Color::ALL.to_vec(), Clarity::ALL.to_vec(), ln_per_carat)?;

    // Ovals are priced off the round matrix: 12 % below round at L/W 1.2, 8 % below at
    // 1.4, 10 % below at 1.6 (`delta_pct` values), for every carat.
    let points = [(1.2, -12.0), (1.4, -8.0), (1.6, -10.0)]
        .map(|(ratio, value)| RatioPoint { ratio, value })
        .to_vec();
    let mode = ValueMode::DeltaPct;
    let oval = RatioModel::new(
        BaseMatrix::Round,
        mode,
        Slider::new(1.1, 1.4, 1.8)?,
        vec![RatioBand::new(pricing::CARAT_MIN, None, points, mode)?],
    )?;
    let mut ratios = RatioModels::default();
    ratios.insert(Shape::Oval, oval);
    // The cushion matrix is only used by shapes whose model names it; none does here.
    let prices = PricingSet::new(round.clone(), round, ratios);

    // A 1 ct G VS2 stone of a shape, at an L/W ratio (`None`: the model's centre).
    let stone = |shape, ratio| QuoteRequest {
        carat: 1.0,
        color: Color::G,
        clarity: Clarity::Vs2,
        shape,
        ratio,
    };
    let mut out = std::io::stdout().lock();
    for request in [stone(Shape::Round, None), stone(Shape::Oval, Some(1.3))] {
        let quote = prices.quote(&request)?;
        writeln!(
            out,
            "{} ct {} {} {}, L/W {}: {:.2} USD per carat, {:.2} USD in total",
            quote.carat,
            quote.color,
            quote.clarity,
            quote.shape,
            quote.shape_ratio,
            round_cents(quote.per_carat_usd),
            round_cents(quote.total_usd),
        )?;
    }
    // Asking for a shape without a model is an error that names the field at fault.
    let refused = prices.quote(&stone(Shape::Heart, None)).unwrap_err();
    writeln!(out, "heart: refused ({}): {}", refused.field, refused)?;
    Ok(())
}
