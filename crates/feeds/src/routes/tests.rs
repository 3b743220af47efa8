//! Unit tests for `crate::routes`: path matching round-trips and refuses look-alikes.

use crate::Route;

#[test]
fn every_route_is_found_at_its_path() {
    for route in Route::ALL {
        assert_eq!(Route::from_path(route.path()), Some(route), "{route:?}");
    }
}

#[test]
fn look_alikes_are_not_routes() {
    for path in ["", "/matrix", "/matrix.json/", "/MATRIX.JSON", "//matrix.json", "/health/", "/x"]
    {
        assert_eq!(Route::from_path(path), None, "{path:?}");
    }
}

/// Per-route metrics count a route by its place in `Route::ALL`: one place each.
#[test]
fn every_route_has_its_own_position() {
    for (place, route) in Route::ALL.into_iter().enumerate() {
        assert_eq!(route.position(), place, "{route:?}");
    }
}
