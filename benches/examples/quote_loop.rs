//! Prices the same stone `N` times in a loop, for counting instructions per quote with
//! callgrind: the count at two sizes, differenced, cancels the start-up (loading the
//! reference snapshot).
//!
//! ```sh
//! cargo build --release -p benches --example quote_loop
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null target/release/examples/quote_loop round 100000
//! ```
//!
//! The first argument is `round` (1.23 ct G VS2), `oval` (the same at ratio 1.45) or
//! `radiant` (2.7 ct E VVS2 at the default ratio), the benches' stones, or `exp`: one
//! `f64::exp` of that round stone's ln price, the benches' baseline.

use std::hint::black_box;

use pricing::{Clarity, Color, PricingSet, QuoteRequest, Shape};

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().unwrap_or_else(|| "round".to_owned());
    let n: u64 = args.next().map_or(1_000_000, |n| n.parse().expect("a count"));
    if which == "exp" {
        let mut sum = 0.0;
        for _ in 0..n {
            sum += black_box(8.839707f64).exp();
        }
        eprintln!("exp: {n} calls, mean {:.2}", sum / n as f64);
        return;
    }
    let (carat, color, clarity, shape, ratio) = match which.as_str() {
        "round" => (1.23, Color::G, Clarity::Vs2, Shape::Round, None),
        "oval" => (1.23, Color::G, Clarity::Vs2, Shape::Oval, Some(1.45)),
        "radiant" => (2.7, Color::E, Clarity::Vvs2, Shape::Radiant, None),
        other => panic!("unknown stone {other}: round, oval, radiant or exp"),
    };
    let request = QuoteRequest { carat, color, clarity, shape, ratio };
    let snapshot = benches::load(&test_support::fixture_path("snapshot"));
    let pricing = snapshot.pricing();
    let sum = quotes(pricing, &request, n);
    eprintln!("{which}: {n} quotes, mean per carat {:.2}", sum / n as f64);
}

/// The loop on its own, as a caller's function would price: `main`'s other values do not
/// crowd the registers around the quote.
#[inline(never)]
fn quotes(pricing: &PricingSet, request: &QuoteRequest, n: u64) -> f64 {
    let mut sum = 0.0;
    for _ in 0..n {
        // The whole result is handed on in place, as the criterion benches hand it on.
        let quote = pricing.quote(black_box(request));
        black_box(&quote);
        sum += quote.expect("a quote").per_carat_usd;
    }
    sum
}
