//! Listings in, a validated daily snapshot out (work in progress).
