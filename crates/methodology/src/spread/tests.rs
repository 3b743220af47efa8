//! The published spread on known truth: on the synthetic market (a known lognormal
//! around a known price) the 10th-90th band covers about 80 % of a second, independent
//! sample, and the percentile of an ask lies near its true percentile; on the real
//! `diamonds` listings, split in two, the band built from one half covers about 80 % of
//! the other.

use datasets::Snapshot;
use pricing::{BaseMatrix, Carat, Clarity, Color, QuoteRequest, Shape, SpreadMatrix};

use crate::{
    BuildOptions, Finish, InputFormat, Listing, build_csv,
    market::to_band,
    read_listings, scope,
    synthetic::{Market, Truth, listings_csv},
    tests::date,
};

/// The fewest screened asks of a cell whose band is checked.
const CHECKED_CELL_ASKS: u32 = 20;

/// Standard normal quantiles of the percentiles checked.
const Z: [(f64, f64); 5] = [
    (10.0, -1.281_551_565_544_600_4),
    (25.0, -0.674_489_750_196_081_7),
    (50.0, 0.0),
    (75.0, 0.674_489_750_196_081_7),
    (90.0, 1.281_551_565_544_600_4),
];

/// A build's snapshot, with its spreads.
fn snapshot(csv: &str, format: InputFormat) -> Snapshot {
    let build = build_csv(csv, format, &BuildOptions::new(date()), None).expect("build");
    Snapshot::parse(build.files).and_then(|s| s.with_stats(build.stats)).expect("valid")
}

/// The in-scope round listings of `csv` with their band.
fn in_scope(csv: &str, format: InputFormat) -> Vec<(usize, Listing)> {
    let (listings, _) = read_listings(csv, format);
    let mut filter = scope::Filter::new(date());
    listings
        .into_iter()
        .filter(|listing| listing.shape == Shape::Round)
        .filter_map(|listing| filter.admit(&listing).map(|band| (band, listing)))
        .collect()
}

/// Coverage of held-out asks by the published 10th-90th band: (inside, all).
#[derive(Debug, Default)]
struct Coverage {
    /// Asks of checked cells, brought to their band's carat, against their cell's band.
    cell: (usize, usize),
    /// Asks against their quote's range at their own carat, where every cell the quote
    /// uses is checked.
    quote: (usize, usize),
}

impl Coverage {
    fn of(snapshot: &Snapshot, held_out: &[(usize, Listing)]) -> Coverage {
        let spreads = snapshot.spreads().expect("spreads");
        let matrix: &SpreadMatrix = spreads.matrix(BaseMatrix::Round);
        let checked = |band: usize, color, clarity| {
            matrix.cell(band, color, clarity).observations >= CHECKED_CELL_ASKS
        };
        let mut coverage = Coverage::default();
        for (band, listing) in held_out {
            let (band, color, clarity) = (*band, listing.color, listing.clarity);
            if !checked(band, color, clarity) {
                continue;
            }
            let q = matrix.cell(band, color, clarity).quantiles;
            let at_band = listing.per_carat().ln() + to_band(listing, band);
            let inside = q[0].ln() <= at_band && at_band <= q[4].ln();
            coverage.cell = (coverage.cell.0 + usize::from(inside), coverage.cell.1 + 1);
            let on_key = listing.carat == matrix.bands()[band];
            let next_checked = band + 1 < matrix.bands().len() && checked(band + 1, color, clarity);
            if !on_key && !next_checked {
                continue;
            }
            let (carat, shape) = (listing.carat, Shape::Round);
            let request = QuoteRequest { carat, color, clarity, shape, ratio: None };
            let quote = snapshot.quote(&request).expect("a quote");
            let range = snapshot.evidence(&quote).expect("evidence").range;
            let inside = range.low_usd <= listing.price && listing.price <= range.high_usd;
            coverage.quote = (coverage.quote.0 + usize::from(inside), coverage.quote.1 + 1);
        }
        coverage
    }

    /// Prints the coverage and asserts more than 1,000 asks checked and both shares
    /// within `tolerance` of 80 %.
    #[track_caller]
    fn assert_four_fifths(&self, which: &str, tolerance: f64) {
        let share = |(inside, all): (usize, usize)| inside as f64 / all.max(1) as f64;
        let (cell, quote) = (share(self.cell), share(self.quote));
        eprintln!("{which} coverage: {self:?}: cells {cell:.3}, quotes {quote:.3}");
        assert!(self.cell.1 > 1_000, "{self:?}");
        assert!((cell - 0.80).abs() <= tolerance, "cell coverage {cell:.3}");
        assert!((quote - 0.80).abs() <= tolerance, "quote coverage {quote:.3}");
    }
}

fn synthetic_csv(seed: u64, multiple: u64) -> String {
    listings_csv(&Market { seed, ..Market::at(multiple) }).expect("generate").0
}

#[test]
fn the_band_covers_four_fifths_of_a_second_synthetic_sample() {
    let built = snapshot(&synthetic_csv(1, 1), InputFormat::Native);
    let held_out = in_scope(&synthetic_csv(2, 1), InputFormat::Native);
    Coverage::of(&built, &held_out).assert_four_fifths("synthetic", 0.05);
}

/// The market of the percentile check: eight times the default, so that most cells of 20
/// asks or more have plenty of neighbours behind their centre (docs/methodology.md,
/// section 16, gives the figures of smaller markets and other seeds).
const PERCENTILE_MARKET: u64 = 8;

/// Asks at known percentiles of a stone on a band carat, against the build's percentile
/// of each: the known lognormal (the market's noise around the true price) gives the
/// truth. Every such ask of a checked cell is within 5 points.
#[test]
fn the_percentile_of_an_ask_is_near_its_true_percentile() {
    let market = Market::at(PERCENTILE_MARKET);
    let built = snapshot(&synthetic_csv(market.seed, market.multiple), InputFormat::Native);
    let truth = Truth::new();
    let spreads = built.spreads().expect("spreads");
    let matrix = spreads.matrix(BaseMatrix::Round);
    let mut errors = Vec::new();
    for (band, &carat) in matrix.bands().iter().enumerate() {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                if matrix.cell(band, color, clarity).observations < CHECKED_CELL_ASKS {
                    continue;
                }
                let shape = Shape::Round;
                let request = QuoteRequest { carat, color, clarity, shape, ratio: None };
                let evidence = built.evidence(&built.quote(&request).expect("quote"));
                let evidence = evidence.expect("evidence");
                let median = carat * truth.round_per_carat(carat, color, clarity);
                for (percent, z) in Z {
                    let ask = median * (market.noise * z).exp();
                    let error = (evidence.percentile(ask) - percent).abs();
                    errors.push((error, format!("{carat} ct {color} {clarity} at p{percent}")));
                }
            }
        }
    }
    errors.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mean = errors.iter().map(|e| e.0).sum::<f64>() / errors.len() as f64;
    let (median, worst) = (errors[errors.len() / 2].0, &errors[errors.len() - 1]);
    eprintln!(
        "percentile error over {} asks: mean {mean:.2}, median {median:.2}, worst {worst:?}",
        errors.len()
    );
    assert!(errors.len() >= 1_000, "{}", errors.len());
    assert!(worst.0 <= 5.0, "{:.2} points off: {}", worst.0, worst.1);
}

/// The real listings split in two by a seeded shuffle: the band built from one half
/// covers about 80 % of the other's asks.
#[test]
#[ignore = "the full diamonds data set: DIAMONDS_CSV, run in release by .ci/run"]
fn the_band_covers_four_fifths_of_held_out_real_asks() {
    if std::env::var_os("DIAMONDS_CSV").is_none() {
        eprintln!("skipped: the committed sample has too few asks per cell; set DIAMONDS_CSV");
        return;
    }
    let (text, which) = crate::tests::diamonds();
    let mut lines = text.lines();
    let header = lines.next().expect("header");
    let mut rows: Vec<&str> = lines.collect();
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    for i in (1..rows.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        rows.swap(i, (state % (i as u64 + 1)) as usize);
    }
    let half = rows.len() / 2;
    let csv = |part: &[&str]| format!("{header}\n{}\n", part.join("\n"));
    let built = snapshot(&csv(&rows[..half]), InputFormat::Diamonds);
    let held_out = in_scope(&csv(&rows[half..]), InputFormat::Diamonds);
    Coverage::of(&built, &held_out).assert_four_fifths(which, 0.10);
}

#[test]
fn a_carat_is_brought_to_its_band_along_the_reference_curve() {
    let reference = Snapshot::reference();
    let round = reference.pricing().round();
    let listing = |carat: f64| {
        Listing::new(carat, Color::G, Clarity::Vs2, Shape::Round, Finish::Excellent, 1e4)
    };
    let at = |carat: f64| round.ln_per_carat(Carat::new(carat).unwrap(), Color::G, Clarity::Vs2);
    let band = scope::band_of(1.2);
    assert!((to_band(&listing(1.2), band) - (at(1.0) - at(1.2))).abs() < 1e-12);
    assert_eq!(to_band(&listing(1.0), band), 0.0);
}

#[test]
fn a_published_day_holds_its_spread_file_and_reads_back_with_it() {
    let csv = synthetic_csv(3, 1);
    let build = build_csv(&csv, InputFormat::Native, &BuildOptions::new(date()), None).unwrap();
    let dir = test_support::TempDir::new("spread-publish");
    let day = crate::publish(&dir.0, date(), &build, datasets::fs::Existing::Refuse).unwrap();
    let written = std::fs::read(day.join(datasets::MATRIX_STATS_FILE)).unwrap();
    assert_eq!(written, build.stats);
    let snapshot = datasets::fs::load_dir(&day).unwrap();
    let spreads = snapshot.spreads().expect("read back with the day");
    let cell = spreads.matrix(BaseMatrix::Round).cell(5, Color::G, Clarity::Vs2);
    assert!(cell.observations >= CHECKED_CELL_ASKS, "{cell:?}");
    assert_eq!(cell.basis, pricing::Basis::Observed);
}
