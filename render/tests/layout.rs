//! The drawing of every tile parts its fields exactly as the catalog says.

use tilepost_engine::catalog::catalog;

#[test]
fn every_tile_parts_its_fields_as_the_catalog() {
    let mut bad = Vec::new();
    for (id, _) in catalog().iter() {
        if let Err(e) = tilepost_render::check_tile_fields(id) {
            bad.push(e);
        }
    }
    assert!(
        bad.is_empty(),
        "{} tiles differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
