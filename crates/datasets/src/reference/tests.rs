//! The committed reference snapshot is the generator's output, valid and realistic.

use pricing::{Carat, Clarity, Color, PriceMatrix, QuoteRequest, Shape};

use crate::{Feed, Snapshot, reference};

#[test]
fn committed_files_equal_the_generator_output() {
    let generated = reference::generate();
    for feed in Feed::ALL {
        let text = String::from_utf8(generated.get(feed).to_vec()).unwrap();
        test_support::assert_golden(&format!("snapshot/{}", feed.file_name()), &text);
    }
}

#[test]
fn committed_stats_equal_the_generator_output() {
    let text = String::from_utf8(reference::generate_stats()).unwrap();
    test_support::assert_golden("snapshot/matrix_stats.json", &text);
    assert_eq!(reference::embedded_stats(), text.as_bytes());
}

/// Calls `check` with every cell of `matrix`: its band, colour and clarity.
fn every_cell(matrix: &PriceMatrix, mut check: impl FnMut(usize, Color, Clarity)) {
    for band in 0..matrix.bands().len() {
        for &color in Color::ALL {
            for &clarity in Clarity::ALL {
                check(band, color, clarity);
            }
        }
    }
}

#[test]
fn reference_stats_are_modelled_ranges_around_every_price() {
    let snapshot = Snapshot::reference();
    let spreads = snapshot.spreads().expect("the reference has spreads");
    let round = snapshot.pricing().round();
    every_cell(round, |band, color, clarity| {
        let cell = spreads.matrix(pricing::BaseMatrix::Round).cell(band, color, clarity);
        assert_eq!((cell.observations, cell.basis), (0, pricing::Basis::Modelled));
        let price = round.ln_at_band(band, color, clarity).exp();
        assert!(cell.quantiles[0] < price && price < cell.quantiles[4]);
    });
}

#[test]
fn reference_is_valid() {
    let snapshot = Snapshot::parse(reference::generate()).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(snapshot.ts_text(), reference::TS);
}

fn price(snapshot: &Snapshot, carat: f64, color: Color, clarity: Clarity) -> f64 {
    snapshot.pricing().round().per_carat(Carat::new(carat).unwrap(), color, clarity)
}

#[test]
fn price_levels_match_public_retail_figures() {
    let s = Snapshot::parse(reference::generate()).unwrap();
    let h_si1 = price(&s, 0.5, Color::H, Clarity::Si1);
    assert!((1550.0..=1850.0).contains(&h_si1), "0.50 H SI1 {h_si1}");
    let g_vs2 = price(&s, 1.0, Color::G, Clarity::Vs2);
    assert!((5000.0..=6500.0).contains(&g_vs2), "1.00 G VS2 {g_vs2}");
}

#[test]
fn better_grades_never_cheaper_and_price_never_falls_with_carat() {
    let s = Snapshot::parse(reference::generate()).unwrap();
    for matrix in [s.pricing().round(), s.pricing().cushion()] {
        every_cell(matrix, |band, color, clarity| {
            let here = matrix.ln_at_band(band, color, clarity);
            if color.index() > 0 {
                assert!(matrix.ln_at_band(band, Color::ALL[color.index() - 1], clarity) >= here);
            }
            if clarity.index() > 0 {
                assert!(matrix.ln_at_band(band, color, Clarity::ALL[clarity.index() - 1]) >= here);
            }
            if band > 0 {
                let below = matrix.ln_at_band(band - 1, color, clarity);
                assert!(below <= here, "{band} {color} {clarity}");
            }
        });
    }
}

#[test]
fn cushion_below_round_everywhere() {
    let s = Snapshot::parse(reference::generate()).unwrap();
    let (round, cushion) = (s.pricing().round(), s.pricing().cushion());
    every_cell(round, |band, color, clarity| {
        assert!(cushion.ln_at_band(band, color, clarity) < round.ln_at_band(band, color, clarity));
    });
}

#[test]
fn every_fancy_shape_has_a_rich_model_and_both_modes_and_bases_are_used() {
    let s = Snapshot::parse(reference::generate()).unwrap();
    let mut cushion_based = 0;
    let mut modes = std::collections::HashSet::new();
    for &shape in Shape::FANCY {
        let model = s.pricing().ratios().get(shape).unwrap();
        assert!(model.bands().len() >= 2, "{shape}");
        assert!(model.bands().iter().all(|band| band.points().len() >= 3), "{shape}");
        cushion_based += usize::from(model.base() == pricing::BaseMatrix::Cushion);
        modes.insert(format!("{:?}", model.mode()));
        // Every shape prices at its slider centre for every carat, below the round price.
        let q = s
            .quote(&QuoteRequest {
                carat: 1.0,
                color: Color::G,
                clarity: Clarity::Vs2,
                shape,
                ratio: None,
            })
            .unwrap();
        assert!(q.per_carat_usd < price(&s, 1.0, Color::G, Clarity::Vs2), "{shape}");
    }
    assert!(cushion_based >= 2);
    assert_eq!(modes.len(), 2);
}
