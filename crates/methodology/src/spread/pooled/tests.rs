//! The pooled centres: on cells that follow the model they recover it to well within the
//! cells' own sampling error; a cell that departs from it keeps its own mean.

use super::*;

/// Ten asks' worth of spread 0.1 behind every mean.
fn cell(band: usize, row: usize, column: usize, n: usize, mean: f64) -> CellMean {
    CellMean { band, row, column, n, mean, squares: 0.01 * (n - 1) as f64 }
}

/// A market that follows the model exactly.
fn truth(band: usize, row: usize, column: usize) -> f64 {
    8.0 + 0.4 * band as f64 - (1.0 + 0.2 * band as f64) * (0.07 * row as f64 + 0.05 * column as f64)
}

/// Deterministic noise in -1..1.
fn wobble(i: usize) -> f64 {
    ((i * 7919) % 201) as f64 / 100.0 - 1.0
}

/// Cells of `n` asks in `bands` bands of 4 x 4 grades, band by band, row by row, each at
/// the truth plus `off(index, row)`.
fn grid(bands: usize, n: usize, off: impl Fn(usize, usize) -> f64) -> Vec<CellMean> {
    (0..bands * 16)
        .map(|i| (i, i / 16, (i / 4) % 4, i % 4))
        .map(|(i, band, row, column)| {
            cell(band, row, column, n, truth(band, row, column) + off(i, row))
        })
        .collect()
}

#[test]
fn cells_that_follow_the_model_are_centred_on_it() {
    // Means off by up to their sampling error (0.1 / sqrt(20) = 0.022).
    let cells = grid(3, 20, |i, _| 0.02 * wobble(i));
    let centres = centres(&cells);
    let error = |(c, centre): (&CellMean, &f64)| (centre - truth(c.band, c.row, c.column)).abs();
    let worst = cells.iter().zip(&centres).map(error).fold(0.0, f64::max);
    let own =
        cells.iter().map(|c| (c.mean - truth(c.band, c.row, c.column)).abs()).fold(0.0, f64::max);
    assert!(worst < own / 2.0, "pooled {worst} against own {own}");
}

#[test]
fn a_cell_far_from_the_model_keeps_most_of_its_own_mean() {
    let mut cells = grid(2, 50, |_, _| 0.0);
    cells[5].mean += 0.5;
    let centre = centres(&cells)[5];
    assert!(centre > cells[5].mean - 0.05, "{centre} against {}", cells[5].mean);
}

#[test]
fn too_few_cells_for_the_model_keep_their_own_means() {
    let cells = [cell(0, 0, 0, 20, 9.0), cell(0, 1, 1, 20, 8.0), cell(1, 0, 1, 20, 9.5)];
    assert_eq!(centres(&cells), vec![9.0, 8.0, 9.5]);
}

#[test]
fn cells_without_spread_keep_their_exact_means() {
    let cells: Vec<CellMean> = grid(2, 20, |_, row| 0.01 * wobble(row))
        .into_iter()
        .map(|c| CellMean { squares: 0.0, ..c })
        .collect();
    let centres = centres(&cells);
    assert!(cells.iter().zip(&centres).all(|(c, &centre)| centre == c.mean), "{centres:?}");
}
