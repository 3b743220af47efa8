//! A synthetic market with a known truth, to check what a build recovers
//! (docs/methodology.md, section 9b; `dcx gen-listings`): listings drawn from a known
//! price surface ([`Truth`]), known shape discounts and L/W ratio effects ([`SHAPES`]) and
//! a known cushion factor ([`TRUE_CUSHION_FACTOR`]), each ask the median ask times
//! exp(noise x a standard normal draw), with a share of unparseable, impossible and
//! mispriced junk rows ([`Written`] counts each kind), deterministic from a seed, at any
//! multiple of its size.

use std::io::{self, Write};

use pricing::{Carat, Clarity, Color, PriceMatrix, Shape};

/// The true cushion-to-round factor: a cushion at its centre ratio (1.10, multiplier 1)
/// asks this share of a round of the same carat and grades. It differs from
/// [`CUSHION_FACTOR`](crate::CUSHION_FACTOR), so a build that does not measure it fails
/// the tests.
pub const TRUE_CUSHION_FACTOR: f64 = 0.70;
/// Round listings at 1x.
pub const ROUND_LISTINGS: u64 = 12_000;

/// The true effect of one fancy shape.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ShapeTruth {
    /// The shape.
    pub shape: Shape,
    /// True for the shapes priced off the cushion (cushion, radiant), whose base is the
    /// round times [`TRUE_CUSHION_FACTOR`]; false for those priced off the round.
    pub on_cushion: bool,
    /// (L/W ratio, price multiplier against the base) by ascending ratio: linear between
    /// two points, flat beyond the first and the last.
    pub points: &'static [(f64, f64)],
    /// The range listings' ratios are drawn from, uniformly (inside the shape's slider).
    pub ratios: (f64, f64),
    /// Listings at 1x.
    pub listings: u64,
}

impl ShapeTruth {
    /// The true price multiplier against the base at `ratio`.
    pub fn multiplier(&self, ratio: f64) -> f64 {
        let points = self.points;
        let (first, last) = (points[0], points[points.len() - 1]);
        if ratio <= first.0 {
            return first.1;
        }
        if ratio >= last.0 {
            return last.1;
        }
        let upper = points.partition_point(|p| p.0 <= ratio);
        let (a, b) = (points[upper - 1], points[upper]);
        a.1 + (ratio - a.0) / (b.0 - a.0) * (b.1 - a.1)
    }
}

/// The seven fancy shapes of the truth. Oval asks 15 % under the round at L/W 1.45 and
/// more at other ratios; every shape's effect peaks (or falls) with the ratio.
pub const SHAPES: [ShapeTruth; 7] = [
    ShapeTruth {
        shape: Shape::Cushion,
        on_cushion: true,
        points: &[(1.00, 0.97), (1.10, 1.00), (1.30, 0.94)],
        ratios: (1.00, 1.30),
        listings: 2_400,
    },
    ShapeTruth {
        shape: Shape::Radiant,
        on_cushion: true,
        points: &[(1.00, 0.93), (1.25, 1.00), (1.50, 1.03)],
        ratios: (1.00, 1.50),
        listings: 1_800,
    },
    ShapeTruth {
        shape: Shape::Emerald,
        on_cushion: false,
        points: &[(1.20, 0.60), (1.45, 0.66), (1.70, 0.62)],
        ratios: (1.20, 1.70),
        listings: 1_800,
    },
    ShapeTruth {
        shape: Shape::Oval,
        on_cushion: false,
        points: &[(1.25, 0.79), (1.45, 0.85), (1.70, 0.81)],
        ratios: (1.25, 1.70),
        listings: 2_400,
    },
    ShapeTruth {
        shape: Shape::Pear,
        on_cushion: false,
        points: &[(1.40, 0.73), (1.60, 0.78), (1.85, 0.74)],
        ratios: (1.40, 1.85),
        listings: 1_800,
    },
    ShapeTruth {
        shape: Shape::Marquise,
        on_cushion: false,
        points: &[(1.75, 0.64), (2.00, 0.70), (2.30, 0.66)],
        ratios: (1.75, 2.30),
        listings: 1_800,
    },
    ShapeTruth {
        shape: Shape::Heart,
        on_cushion: false,
        points: &[(1.00, 0.75), (1.15, 0.71)],
        ratios: (1.00, 1.15),
        listings: 1_800,
    },
];

/// The truth of `shape` (`None` for the round).
pub fn shape_truth(shape: Shape) -> Option<&'static ShapeTruth> {
    SHAPES.iter().find(|truth| truth.shape == shape)
}

/// Carat bands 0.3 .. 5.0 (a listing's carat is drawn uniformly inside its band, to the
/// hundredth) and their weights: most stones weigh under 2 ct, and every ratio-model
/// band (under 1 ct, 1 to 2 ct, 2 ct and more) gets about a quarter or more of them.
const BANDS: [(u32, u32, f64); 11] = [
    (30, 39, 9.0),
    (40, 49, 9.0),
    (50, 69, 12.0),
    (70, 89, 12.0),
    (90, 99, 8.0),
    (100, 149, 14.0),
    (150, 199, 10.0),
    (200, 299, 12.0),
    (300, 399, 7.0),
    (400, 499, 4.0),
    (500, 599, 3.0),
];
/// Shares of the colours D..M.
const COLOR_WEIGHTS: [f64; 10] = [5.0, 8.0, 11.0, 14.0, 14.0, 13.0, 12.0, 10.0, 7.0, 6.0];
/// Shares of the clarities FL..SI2.
const CLARITY_WEIGHTS: [f64; 8] = [2.0, 4.0, 8.0, 12.0, 17.0, 20.0, 21.0, 16.0];

/// The CSV header the generator writes (the native schema).
pub const HEADER: &str =
    "listing_id,carat,color,clarity,shape,cut,polish,symmetry,fluorescence,lab,lw_ratio,price";

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Market {
    /// The seed: the same market and seed give the same bytes.
    pub seed: u64,
    /// How many times the 1x listings (1x: [`ROUND_LISTINGS`] rounds and each shape's
    /// [`ShapeTruth::listings`], 25,800 rows).
    pub multiple: u64,
    /// The standard deviation of ln(ask / median ask), 0..=1.
    pub noise: f64,
    /// The share of rows replaced by junk, 0..=1.
    pub junk_share: f64,
}

impl Default for Market {
    /// Seed 1, 1x, noise 0.10 (about ±10 % around the median ask), 2 % junk.
    fn default() -> Market {
        Market { seed: 1, multiple: 1, noise: 0.10, junk_share: 0.02 }
    }
}

impl Market {
    /// The default market at `multiple` times its size.
    pub fn at(multiple: u64) -> Market {
        Market { multiple, ..Market::default() }
    }

    /// Checks the parameters; the error says what is allowed.
    pub fn check(&self) -> Result<(), String> {
        if self.multiple == 0 || self.multiple > 1_000 {
            return Err(format!("multiple must be 1..=1000, got {}", self.multiple));
        }
        if !(0.0..=1.0).contains(&self.noise) {
            return Err(format!("noise must be 0..=1, got {}", self.noise));
        }
        if !(0.0..=1.0).contains(&self.junk_share) {
            return Err(format!("junk share must be 0..=1, got {}", self.junk_share));
        }
        Ok(())
    }

    /// Rows the market writes (junk included).
    pub fn rows(&self) -> u64 {
        (ROUND_LISTINGS + SHAPES.iter().map(|s| s.listings).sum::<u64>()) * self.multiple
    }
}

/// What [`write_listings`] wrote, by kind of row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Written {
    /// Data rows (the header not counted).
    pub rows: u64,
    /// Listings drawn from the truth.
    pub listings: u64,
    /// Rows no reader can parse.
    pub unparseable: u64,
    /// Rows with an impossible price (under 100 or over 1,000,000 USD per carat).
    pub impossible: u64,
    /// Rows four times or a third of the real price (in scope, left to the screens).
    pub mispriced: u64,
}

/// The price surface of the truth.
#[derive(Debug, Clone)]
pub struct Truth {
    round: PriceMatrix,
}

impl Default for Truth {
    fn default() -> Truth {
        Truth::new()
    }
}

impl Truth {
    /// The truth, its round surface taken from the embedded reference snapshot.
    pub fn new() -> Truth {
        Truth { round: datasets::Snapshot::reference().pricing().round().clone() }
    }

    /// A round stone's median ask per carat, USD.
    pub fn round_per_carat(&self, carat: f64, color: Color, clarity: Clarity) -> f64 {
        let carat = Carat::new(carat).expect("a carat of the market");
        self.round.per_carat(carat, color, clarity)
    }

    /// The median ask per carat of a stone of `shape` (at L/W `ratio` for a fancy one).
    pub fn per_carat(
        &self,
        shape: Shape,
        ratio: f64,
        carat: f64,
        color: Color,
        clarity: Clarity,
    ) -> f64 {
        let round = self.round_per_carat(carat, color, clarity);
        match shape_truth(shape) {
            None => round,
            Some(truth) => {
                let base = if truth.on_cushion { round * TRUE_CUSHION_FACTOR } else { round };
                base * truth.multiplier(ratio)
            }
        }
    }
}

/// Writes the market's listings as CSV (the native schema, header first) to `out`.
pub fn write_listings(market: &Market, out: &mut dyn Write) -> io::Result<Written> {
    market.check().map_err(|why| io::Error::new(io::ErrorKind::InvalidInput, why))?;
    let truth = Truth::new();
    let mut rng = Rng(market.seed);
    let mut written = Written::default();
    writeln!(out, "{HEADER}")?;
    let round = (Shape::Round, None, ROUND_LISTINGS);
    let fancy = SHAPES.iter().map(|s| (s.shape, Some(s), s.listings));
    for (shape, shape_truth, count) in std::iter::once(round).chain(fancy) {
        for _ in 0..count * market.multiple {
            let band = BANDS[rng.pick(&BANDS.map(|b| b.2))];
            let carat = f64::from(band.0 + rng.below(band.1 - band.0 + 1)) / 100.0;
            let color = Color::ALL[rng.pick(&COLOR_WEIGHTS)];
            let clarity = Clarity::ALL[rng.pick(&CLARITY_WEIGHTS)];
            let ratio = shape_truth.map(|t| {
                let (lo, hi) = t.ratios;
                ((lo + (hi - lo) * rng.uniform()) * 100.0).round() / 100.0
            });
            let median = truth.per_carat(shape, ratio.unwrap_or(1.0), carat, color, clarity);
            let price = carat * median * (market.noise * rng.normal()).exp();
            written.rows += 1;
            let id = written.rows;
            let ratio = ratio.map_or(String::new(), |r| format!("{r:.2}"));
            let junk = rng.uniform() < market.junk_share;
            let kind = if junk { rng.below(8) } else { 8 };
            let (color, price) = match kind {
                0 => (color.as_str(), "n/a".to_owned()),
                1 => (
                    color.as_str(),
                    format!("\"{},{:03}\"", price as u64 / 1000, price as u64 % 1000),
                ),
                2 => ("G+", format!("{price:.0}")),
                3 => {
                    writeln!(out, "syn-{id},{carat:.2},{color},{clarity},{shape}")?;
                    written.unparseable += 1;
                    continue;
                }
                4 => (color.as_str(), "1".to_owned()),
                5 => (color.as_str(), format!("{:.0}", price * 1e7)),
                // A third of the price, unless that would be an impossible ask.
                6 if median / 3.0 >= 2.0 * crate::MIN_ASK_PER_CARAT => {
                    (color.as_str(), format!("{:.0}", price / 3.0))
                }
                6 | 7 => (color.as_str(), format!("{:.0}", price * 4.0)),
                _ => (color.as_str(), format!("{price:.0}")),
            };
            match kind {
                0..=2 => written.unparseable += 1,
                4 | 5 => written.impossible += 1,
                6 | 7 => written.mispriced += 1,
                _ => written.listings += 1,
            }
            writeln!(
                out,
                "syn-{id},{carat:.2},{color},{clarity},{shape},Excellent,Excellent,Excellent,None,GIA,{ratio},{price}"
            )?;
        }
    }
    Ok(written)
}

/// The market's listings as CSV text.
pub fn listings_csv(market: &Market) -> Result<(String, Written), String> {
    let mut bytes = Vec::new();
    let written = write_listings(market, &mut bytes).map_err(|err| err.to_string())?;
    let text = String::from_utf8(bytes).map_err(|err| err.to_string())?;
    Ok((text, written))
}

/// SplitMix64: a small, fast, well-mixed generator; the same seed gives the same stream
/// on every platform.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in 0..n.
    fn below(&mut self, n: u32) -> u32 {
        (self.uniform() * f64::from(n)) as u32
    }

    /// A standard normal draw (Box-Muller).
    fn normal(&mut self) -> f64 {
        let u = 1.0 - self.uniform();
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }

    /// An index drawn with probability proportional to `weights`.
    fn pick(&mut self, weights: &[f64]) -> usize {
        let total: f64 = weights.iter().sum();
        let mut target = self.uniform() * total;
        for (i, weight) in weights.iter().enumerate() {
            if target < *weight {
                return i;
            }
            target -= weight;
        }
        weights.len() - 1
    }
}

#[cfg(test)]
mod tests;
