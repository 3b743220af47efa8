//! DCX index arithmetic: the weighted geometric mean of a basket's per-carat prices and
//! percent changes between index values.

use crate::error::{Error, ErrorKind, finite};

/// One basket stone's contribution: its weight and its per-carat price.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BasketEntry {
    /// Weight in the basket (positive; weights need not sum to 1).
    pub weight: f64,
    /// Per-carat price in USD (positive).
    pub per_carat: f64,
}

/// DCX = exp(sum(w_i ln p_i) / sum(w_i)): the weighted geometric mean of the basket's
/// per-carat prices. Refuses an empty basket, non-positive weights or prices.
///
/// ```
/// use pricing::{BasketEntry, weighted_geometric_mean};
///
/// let basket = [
///     BasketEntry { weight: 0.5, per_carat: 1000.0 },
///     BasketEntry { weight: 0.5, per_carat: 4000.0 },
/// ];
/// let dcx = weighted_geometric_mean(&basket)?;
/// assert!((dcx - 2000.0).abs() < 1e-9); // geometric, not arithmetic (2500)
/// assert!(weighted_geometric_mean(&[]).is_err());
/// # Ok::<(), pricing::Error>(())
/// ```
pub fn weighted_geometric_mean(basket: &[BasketEntry]) -> Result<f64, Error> {
    if basket.is_empty() {
        return Err(Error::new(ErrorKind::Shape, "the basket is empty"));
    }
    let (mut weight_sum, mut log_sum) = (0.0, 0.0);
    for entry in basket {
        let weight = finite("basket weight", entry.weight)?;
        let price = finite("basket per-carat price", entry.per_carat)?;
        if weight <= 0.0 || price <= 0.0 {
            return Err(Error::new(
                ErrorKind::OutOfRange,
                format!(
                    "basket weights and prices must be positive, got weight {weight} and price {price}"
                ),
            ));
        }
        weight_sum += weight;
        log_sum += weight * price.ln();
    }
    Ok((log_sum / weight_sum).exp())
}

/// Change from `old` to `new` in percent (0.13 means +0.13 %). `old` must be positive.
///
/// ```
/// let change = pricing::percent_change(4000.0, 4100.0)?;
/// assert!((change - 2.5).abs() < 1e-9);
/// assert!(pricing::percent_change(0.0, 4100.0).is_err());
/// # Ok::<(), pricing::Error>(())
/// ```
pub fn percent_change(old: f64, new: f64) -> Result<f64, Error> {
    let old = finite("previous index", old)?;
    let new = finite("current index", new)?;
    if old <= 0.0 {
        return Err(Error::new(
            ErrorKind::OutOfRange,
            format!("previous index must be positive, got {old}"),
        ));
    }
    Ok((new / old - 1.0) * 100.0)
}

#[cfg(test)]
mod tests;
