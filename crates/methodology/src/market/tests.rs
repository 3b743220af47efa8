//! Tests of `market`: the counted asks give back every value, and a listing is kept only
//! as the counts and asks of its cell (fancy listings with a ratio as a record).

use pricing::{Clarity, Color, Shape};
use proptest::prelude::*;

use super::{CellAsks, MERGE_AT_LEAST, Market, Tally};
use crate::{
    listing::{Finish, Listing},
    scope::cell_index,
};

fn sorted(mut values: Vec<f64>) -> Vec<f64> {
    values.sort_by(f64::total_cmp);
    values
}

#[test]
fn repeated_asks_are_counted_once() {
    let mut tally = Tally::default();
    let values: Vec<f64> = (0..10_000).map(|i| [8.5, 8.25, 9.0][i % 3]).collect();
    for &value in &values {
        tally.push(value);
    }
    assert_eq!(tally.len(), 10_000);
    assert_eq!(tally.counted.len(), 3, "three distinct values");
    assert!(tally.waiting.len() < MERGE_AT_LEAST);
    assert_eq!(tally.sorted(), sorted(values));
}

proptest! {
    #[test]
    fn a_tally_gives_back_every_value_in_order(
        values in prop::collection::vec(
            prop_oneof![
                prop::sample::select(vec![7.0, 7.5, 8.0, 8.125, 9.0, 10.5]),
                4.0f64..14.0,
            ],
            0..400,
        )
    ) {
        let mut tally = Tally::default();
        for &value in &values {
            tally.push(value);
        }
        prop_assert_eq!(tally.len(), values.len());
        let mut distinct = sorted(values.clone());
        distinct.dedup();
        prop_assert!(tally.counted.len() <= distinct.len());
        prop_assert!(tally.waiting.len() <= distinct.len().max(MERGE_AT_LEAST));
        prop_assert_eq!(tally.sorted(), sorted(values));
    }
}

#[test]
fn a_market_keeps_asks_by_shape_and_cell_depth_and_ratio_listings() {
    let round = Listing::new(1.0, Color::G, Clarity::Vs2, Shape::Round, Finish::Excellent, 6000.0);
    let mut oval =
        Listing::new(1.2, Color::G, Clarity::Vs2, Shape::Oval, Finish::Excellent, 6000.0);
    let plain_oval = oval.clone();
    oval.lw_ratio = Some(1.4);
    oval.listing_id = Some("O-1".to_owned());
    oval.lab = Some("GIA".to_owned());
    let mut market = Market::default();
    for listing in [&round, &round, &oval, &plain_oval] {
        market.add(listing, 5);
    }
    let cell = cell_index(5, Color::G, Clarity::Vs2);
    assert_eq!(market.asks(Shape::Round).cell(cell).sorted(), [6000f64.ln(); 2]);
    assert_eq!(market.asks(Shape::Round).len(), 2);
    assert_eq!(market.asks(Shape::Oval).cell(cell).sorted(), [(6000.0f64 / 1.2).ln(); 2]);
    assert_eq!(market.asks(Shape::Cushion).len(), 0);
    assert_eq!(market.depth[5][Color::G.index()][Clarity::Vs2.index()], 4);
    let depth: u64 = market.depth.iter().flatten().flatten().sum();
    assert_eq!(depth, 4);
    let with_ratio = market.with_ratio();
    assert_eq!(with_ratio.len(), 1, "only fancy listings with a ratio are kept whole");
    assert_eq!(with_ratio[0], Listing { lab: None, listing_id: None, ..oval });
    assert_eq!(CellAsks::of(&[round]).cell(cell).len(), 1);
}

proptest! {
    #[test]
    fn a_quantile_of_counted_values_is_the_quantile_of_the_values(
        pairs in prop::collection::vec((4.0f64..14.0, 1u64..5), 1..60),
        q in prop::sample::select(vec![0.0, 0.25, 0.5, 0.75, 1.0]),
    ) {
        let mut pairs = pairs;
        pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
        let values: Vec<f64> = pairs
            .iter()
            .flat_map(|&(value, count)| std::iter::repeat_n(value, count as usize))
            .collect();
        prop_assert_eq!(
            super::quantile_counted(&pairs, q).to_bits(),
            crate::select::quantile(&values, q).to_bits()
        );
    }
}

#[test]
fn counted_values_merge_the_waiting_ones() {
    let mut tally = Tally::default();
    for value in [9.0, 8.0, 9.0, 7.5] {
        tally.push(value);
    }
    assert_eq!(tally.counted(), [(7.5, 1), (8.0, 1), (9.0, 2)]);
}
