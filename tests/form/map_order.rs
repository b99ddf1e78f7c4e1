//! The build `tests/form-only` exists for: serde_json without `preserve_order`. Compiled only
//! there (its feature `map-order`).

use serde_json::{Map, Value};

/// A `serde_json::Map` iterates sorted by key, not in insertion order, unless some package of
/// the build turns on serde_json's `preserve_order` (elicit-mcp's `rmcp` feature does). This
/// fails if that feature leaked into the build, in which case the form tests here would test
/// nothing the root package does not.
#[test]
#[ignore = "holds only when this package is built alone, as .ci/run does"]
fn serde_json_maps_iterate_sorted_by_key() {
    let mut map = Map::new();
    map.insert("zulu".to_owned(), Value::Null);
    map.insert("alpha".to_owned(), Value::Null);
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["alpha", "zulu"],
        "serde_json's preserve_order is on in this build"
    );
}
