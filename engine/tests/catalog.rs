//! The tile catalog (`engine/data/catalog.toml`, a copy of `shared/tiles/catalog.toml`): counts
//! per expansion, the partition of every side and half-edge into features, field borders,
//! ids, and the rotation tables the engine derives from it.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use tilepost_engine::catalog::{Catalog, EdgeKind, CATALOG_TOML, NONE};
use tilepost_engine::{catalog, Dir, Expansion, FeatureKind, Half, Rotation, Spot};
use toml::Value;

const EDGES: [&str; 4] = ["N", "E", "S", "W"];
const HALVES: [[&str; 2]; 4] = [["Nl", "Nr"], ["El", "Er"], ["Sl", "Sr"], ["Wl", "Wr"]];

/// The raw TOML, read independently of the engine's parser.
fn raw() -> Value {
    toml::from_str(CATALOG_TOML).expect("catalog.toml is valid TOML")
}

fn tiles(raw: &Value) -> &Vec<Value> {
    raw["tile"].as_array().expect("[[tile]] tables")
}

fn strs(v: Option<&Value>) -> Vec<&str> {
    v.and_then(Value::as_array)
        .map(|a| a.iter().map(|s| s.as_str().expect("a string")).collect())
        .unwrap_or_default()
}

fn in_draw_pile(t: &Value) -> bool {
    !t.get("not_in_draw_pile")
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

#[test]
fn land_tiles_per_expansion() {
    let raw = raw();
    let mut per: BTreeMap<&str, i64> = BTreeMap::new();
    let mut types: BTreeMap<&str, i64> = BTreeMap::new();
    for t in tiles(&raw).iter().filter(|t| in_draw_pile(t)) {
        let e = t["expansion"].as_str().unwrap();
        *per.entry(e).or_default() += t["count"].as_integer().unwrap();
        *types.entry(e).or_default() += 1;
    }
    let expected: BTreeMap<&str, i64> = [
        ("base", 72),
        ("river", 12),
        ("inns_cathedrals", 18),
        ("traders_builders", 24),
        ("abbey_mayor", 12),
        ("flying_machines", 8),
        ("ferries", 8),
        ("gold_mines", 8),
        ("mage_witch", 8),
        ("robbers", 8),
        ("crop_circles", 6),
        ("pig_herd", 1),
    ]
    .into_iter()
    .collect();
    assert_eq!(per, expected);
    assert_eq!(per.values().sum::<i64>(), 185);

    // the [[expansion]] tables agree with the tiles; The Abbot and Messages bring none
    let exps = raw["expansion"].as_array().unwrap();
    assert_eq!(exps.len(), 14);
    for e in exps {
        let id = e["id"].as_str().unwrap();
        let n = per.get(id).copied().unwrap_or(0);
        assert_eq!(e["land_tiles"].as_integer(), Some(n), "{id}");
        assert_eq!(e["expected_land_tiles"].as_integer(), Some(n), "{id}");
        assert_eq!(
            e["tile_types"].as_integer(),
            Some(types.get(id).copied().unwrap_or(0)),
            "{id}"
        );
        if id != "base" {
            assert!(
                Expansion::from_id(id).is_some(),
                "unknown expansion id {id}"
            );
        }
    }
    assert_eq!(per.get("abbot"), None);
    assert_eq!(per.get("messages"), None);

    // the 6 abbey tiles stay out of the pile
    let abbeys: Vec<&Value> = tiles(&raw).iter().filter(|t| !in_draw_pile(t)).collect();
    assert_eq!(abbeys.len(), 1);
    assert_eq!(abbeys[0]["id"].as_str(), Some("am/abbey"));
    assert_eq!(abbeys[0]["count"].as_integer(), Some(6));
    assert_eq!(tiles(&raw).len(), 137);
}

#[test]
fn the_engine_reads_the_same_counts() {
    let cat = catalog();
    assert_eq!(cat.tiles.len(), 137);
    let mut per: HashMap<Option<Expansion>, u32> = HashMap::new();
    for (_, t) in cat.iter().filter(|(_, t)| !t.not_in_draw_pile) {
        *per.entry(t.expansion).or_default() += t.count as u32;
    }
    assert_eq!(per[&None], 72);
    assert_eq!(per[&Some(Expansion::River)], 12);
    assert_eq!(per[&Some(Expansion::AbbeyMayor)], 12);
    assert_eq!(per[&Some(Expansion::PigHerd)], 1);
    assert_eq!(per.values().sum::<u32>(), 185);
    assert!(!per.contains_key(&Some(Expansion::Abbot)));
    assert!(!per.contains_key(&Some(Expansion::Messages)));
    // the start tile is the one base/D copy with the dark back
    let start = cat.get(cat.start_tile());
    assert_eq!(
        (start.id.as_str(), start.count, start.start_copies),
        ("base/D", 4, 1)
    );
    assert_eq!(cat.iter().filter(|(_, t)| t.start_copies > 0).count(), 1);
}

#[test]
fn base_tiles_match_the_rulebook_list() {
    // base.md §10
    let list = [
        ("A", 2),
        ("B", 4),
        ("C", 1),
        ("D", 4),
        ("E", 4),
        ("E-garden", 1),
        ("F", 2),
        ("G", 1),
        ("H", 2),
        ("H-garden", 1),
        ("I", 1),
        ("I-garden", 1),
        ("J", 3),
        ("K", 3),
        ("L", 3),
        ("M", 1),
        ("M-garden", 1),
        ("N", 2),
        ("N-garden", 1),
        ("O", 2),
        ("P", 3),
        ("Q", 1),
        ("R", 2),
        ("R-garden", 1),
        ("S", 2),
        ("T", 1),
        ("U", 7),
        ("U-garden", 1),
        ("V", 8),
        ("V-garden", 1),
        ("W", 4),
        ("X", 1),
    ];
    let cat = catalog();
    let base: BTreeMap<String, u8> = cat
        .iter()
        .filter(|(_, t)| t.expansion.is_none())
        .map(|(_, t)| (t.id.clone(), t.count))
        .collect();
    let want: BTreeMap<String, u8> = list
        .iter()
        .map(|(l, n)| (format!("base/{l}"), *n))
        .collect();
    assert_eq!(base, want);
    // 10 pennants and 8 gardens in the base box
    let (mut pennants, mut gardens) = (0u32, 0u32);
    for (_, t) in cat.iter().filter(|(_, t)| t.expansion.is_none()) {
        for f in &t.features {
            pennants += t.count as u32 * f.pennants as u32;
            if f.kind == FeatureKind::Garden {
                gardens += t.count as u32;
            }
        }
    }
    assert_eq!((pennants, gardens), (10, 8));
}

#[test]
fn ids_are_unique_and_spell_their_edges() {
    let raw = raw();
    let mut seen = BTreeSet::new();
    for t in tiles(&raw) {
        let id = t["id"].as_str().unwrap();
        assert!(seen.insert(id), "duplicate id {id}");
        let exp = t["expansion"].as_str().unwrap();
        let (prefix, rest) = id.split_once('/').expect("prefix/name");
        let want_prefix = raw["expansion"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["id"].as_str() == Some(exp))
            .map(|e| e["id_prefix"].as_str().unwrap())
            .unwrap();
        assert_eq!(prefix, want_prefix, "{id}");
        let has_garden = t["features"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["kind"].as_str() == Some("garden"));
        assert_eq!(rest.ends_with("-garden"), has_garden, "{id}");
        if prefix == "base" {
            let letter = rest.trim_end_matches("-garden");
            assert_eq!(t["letter"].as_str(), Some(letter), "{id}");
            continue;
        }
        if matches!(id, "river/01-spring" | "river/02-lake" | "am/abbey") {
            continue;
        }
        // <NN>-<edgecode>: c city, r road, f field, i river, N E S W
        let code: String = EDGES
            .iter()
            .map(|e| match t["edges"][*e].as_str().unwrap() {
                "city" => 'c',
                "road" => 'r',
                "field" => 'f',
                "river" => 'i',
                other => panic!("{id}: edge {other}"),
            })
            .collect();
        let mut parts = rest.splitn(3, '-');
        let nn = parts.next().unwrap();
        assert!(
            nn.len() == 2 && nn.chars().all(|c| c.is_ascii_digit()),
            "{id}"
        );
        assert_eq!(parts.next(), Some(code.as_str()), "{id}");
    }
    // the special river tiles
    let spring = tiles(&raw)
        .iter()
        .find(|t| t["id"].as_str() == Some("river/01-spring"))
        .unwrap();
    assert_eq!(spring["start_with_river"].as_bool(), Some(true));
    let lake = tiles(&raw)
        .iter()
        .find(|t| t["id"].as_str() == Some("river/02-lake"))
        .unwrap();
    assert_eq!(lake["river_last"].as_bool(), Some(true));
    // the engine resolves every id back to its tile
    let cat = catalog();
    for (i, t) in cat.iter() {
        assert_eq!(cat.id(&t.id), Some(i));
    }
    assert_eq!(cat.id("base/Z"), None);
}

#[test]
fn every_side_and_half_belongs_to_exactly_one_feature_of_its_kind() {
    let raw = raw();
    for t in tiles(&raw) {
        let id = t["id"].as_str().unwrap();
        let fs = t["features"].as_array().unwrap();
        for (side, name) in EDGES.iter().enumerate() {
            let terrain = t["edges"][*name].as_str().unwrap();
            let holders = |kind: &str| -> usize {
                fs.iter()
                    .filter(|f| f["kind"].as_str() == Some(kind))
                    .filter(|f| strs(f.get("edges")).contains(name))
                    .count()
            };
            let half_owners = |h: &str| -> usize {
                fs.iter()
                    .filter(|f| f["kind"].as_str() == Some("field"))
                    .filter(|f| strs(f.get("halves")).contains(&h))
                    .count()
            };
            let any_side_holder = fs.iter().any(|f| strs(f.get("edges")).contains(name));
            let [l, r] = HALVES[side];
            match terrain {
                "city" => {
                    assert_eq!(holders("city"), 1, "{id} side {name}");
                    assert_eq!((holders("road"), holders("river")), (0, 0), "{id} {name}");
                    assert_eq!((half_owners(l), half_owners(r)), (0, 0), "{id} {name}");
                }
                "road" | "river" => {
                    assert_eq!(holders(terrain), 1, "{id} side {name}");
                    assert_eq!(
                        fs.iter()
                            .filter(|f| strs(f.get("edges")).contains(name))
                            .count(),
                        1,
                        "{id} side {name}: one feature at the centre"
                    );
                    assert_eq!((half_owners(l), half_owners(r)), (1, 1), "{id} {name}");
                }
                "field" => {
                    assert!(!any_side_holder, "{id} field side {name} has a feature");
                    assert_eq!((half_owners(l), half_owners(r)), (1, 1), "{id} {name}");
                }
                "abbey" => {
                    assert_eq!(id, "am/abbey");
                    assert!(!any_side_holder);
                    assert_eq!((half_owners(l), half_owners(r)), (0, 0));
                }
                other => panic!("{id}: unknown terrain {other}"),
            }
        }
        // only roads, rivers and cities sit on sides; only fields hold halves
        for f in fs {
            let kind = f["kind"].as_str().unwrap();
            if !strs(f.get("edges")).is_empty() {
                assert!(matches!(kind, "city" | "road" | "river"), "{id}");
            }
            if !strs(f.get("halves")).is_empty() {
                assert_eq!(kind, "field", "{id}");
            }
            if kind == "field" && strs(f.get("halves")).is_empty() {
                assert_eq!(f["inner"].as_bool(), Some(true), "{id}: a field on no side");
            }
        }
        let fids: Vec<&str> = fs.iter().map(|f| f["id"].as_str().unwrap()).collect();
        let unique: BTreeSet<&str> = fids.iter().copied().collect();
        assert_eq!(unique.len(), fids.len(), "{id}: feature ids repeat");
    }
}

#[test]
fn field_borders_name_cities_of_the_same_tile() {
    let raw = raw();
    let mut borders = 0;
    for t in tiles(&raw) {
        let id = t["id"].as_str().unwrap();
        let fs = t["features"].as_array().unwrap();
        let cities: HashMap<&str, &Value> = fs
            .iter()
            .filter(|f| f["kind"].as_str() == Some("city"))
            .map(|f| (f["id"].as_str().unwrap(), f))
            .collect();
        for f in fs {
            let b = strs(f.get("borders"));
            if f["kind"].as_str() != Some("field") {
                assert!(b.is_empty(), "{id}: only fields have borders");
                continue;
            }
            for c in &b {
                assert!(cities.contains_key(c), "{id}: field borders {c}");
                borders += 1;
            }
            // a field half at a corner next to a city side borders that city
            for h in strs(f.get("halves")) {
                let corner_side = match h {
                    "Nl" | "Sr" => "W",
                    "Nr" | "Sl" => "E",
                    "El" | "Wr" => "N",
                    "Er" | "Wl" => "S",
                    other => panic!("{id}: half {other}"),
                };
                if t["edges"][corner_side].as_str() == Some("city") {
                    let (c, _) = cities
                        .iter()
                        .find(|(_, cf)| strs(cf.get("edges")).contains(&corner_side))
                        .unwrap();
                    assert!(
                        b.contains(c),
                        "{id}: field {:?} at {h} misses {c}",
                        f["id"].as_str()
                    );
                }
            }
        }
    }
    assert!(borders > 100);
    // the engine keeps them as bits of city features of the same tile
    for (_, t) in catalog().iter() {
        for f in &t.features {
            let mut b = f.borders;
            while b != 0 {
                let j = b.trailing_zeros() as usize;
                b &= b - 1;
                assert_eq!(t.features[j].kind, FeatureKind::City, "{}", t.id);
                assert_eq!(f.kind, FeatureKind::Field, "{}", t.id);
            }
        }
    }
}

#[test]
fn the_engine_parse_keeps_every_fact() {
    let raw = raw();
    let cat = catalog();
    for t in tiles(&raw) {
        let id = t["id"].as_str().unwrap();
        let tt = cat.get(cat.id(id).unwrap());
        assert_eq!(tt.count as i64, t["count"].as_integer().unwrap(), "{id}");
        assert_eq!(tt.not_in_draw_pile, !in_draw_pile(t), "{id}");
        for (i, e) in EDGES.iter().enumerate() {
            let want = match t["edges"][*e].as_str().unwrap() {
                "city" => EdgeKind::City,
                "road" => EdgeKind::Road,
                "field" => EdgeKind::Field,
                "river" => EdgeKind::River,
                _ => EdgeKind::Abbey,
            };
            assert_eq!(tt.edges[i], want, "{id}");
        }
        let fs = t["features"].as_array().unwrap();
        assert_eq!(tt.features.len(), fs.len(), "{id}");
        for (f, rf) in tt.features.iter().zip(fs) {
            assert_eq!(f.id, rf["id"].as_str().unwrap(), "{id}");
            assert_eq!(f.kind.name(), rf["kind"].as_str().unwrap(), "{id}");
            let edges: u8 = strs(rf.get("edges"))
                .iter()
                .map(|e| 1u8 << EDGES.iter().position(|x| x == e).unwrap())
                .sum();
            assert_eq!(f.edges, edges, "{id} {}", f.id);
            let halves: u8 = strs(rf.get("halves"))
                .iter()
                .map(|h| 1u8 << h.parse::<Half>().unwrap().index())
                .sum();
            assert_eq!(f.halves, halves, "{id} {}", f.id);
            assert_eq!(
                f.pennants as i64,
                rf.get("pennants").and_then(Value::as_integer).unwrap_or(0),
                "{id}"
            );
            let borders: BTreeSet<&str> = strs(rf.get("borders")).into_iter().collect();
            let got: BTreeSet<&str> = (0..tt.features.len())
                .filter(|j| f.borders & (1 << j) != 0)
                .map(|j| tt.features[j].id.as_str())
                .collect();
            assert_eq!(got, borders, "{id} {}", f.id);
        }
    }
}

#[test]
fn rotation_tables_agree_with_the_reference_orientation() {
    for (_, t) in catalog().iter() {
        for r in Rotation::ALL {
            for d in Dir::ALL {
                // side d of the reference orientation shows at d.rotate(r) on the board
                let board = d.rotate(r);
                assert_eq!(t.edge_at(r, board), t.edges[d.index()], "{}", t.id);
                let owner = t
                    .features
                    .iter()
                    .position(|f| f.edges & (1 << d.index()) != 0);
                assert_eq!(
                    t.feature_at(r, Spot::Edge(board)),
                    owner,
                    "{} r{} side {}",
                    t.id,
                    r.degrees(),
                    board.name()
                );
                let sig = (t.signature[r.index()] >> (3 * board.index())) & 0b111;
                assert_eq!(sig, t.edges[d.index()] as u16, "{}", t.id);
                for h in d.halves() {
                    let owner = t
                        .features
                        .iter()
                        .position(|f| f.halves & (1 << h.index()) != 0);
                    assert_eq!(t.feature_at(r, Spot::Half(h.rotate(r))), owner, "{}", t.id);
                }
            }
            // every feature has a spot that names it back
            for i in 0..t.features.len() {
                let spot = t.canonical_spot(r, i);
                assert_eq!(
                    t.feature_at(r, spot),
                    Some(i),
                    "{} {}",
                    t.id,
                    t.features[i].id
                );
                let name = t.spot_name(spot);
                assert_eq!(t.parse_spot(&name), Some(spot), "{} {name}", t.id);
                assert_eq!(
                    t.parse_spot(&t.features[i].id)
                        .and_then(|s| t.feature_at(r, s)),
                    Some(i)
                );
            }
        }
        let centre = t
            .features
            .iter()
            .position(|f| {
                matches!(
                    f.kind,
                    FeatureKind::Monastery | FeatureKind::Garden | FeatureKind::Lake
                )
            })
            .map(|i| i as u8)
            .unwrap_or(NONE);
        assert_eq!(t.center_feature, centre, "{}", t.id);
    }
}

#[test]
fn the_engine_copy_is_the_shared_catalog() {
    // The shared reference sits beside the repository (`../shared`); when it is there,
    // the engine's copy must be byte for byte the same, up to the section of the engine's
    // own additions at the end (tiles of expansions the shared catalog does not hold).
    let shared =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/tiles/catalog.toml");
    let ours = CATALOG_TOML
        .split_once("\n# ----- The engine's own additions")
        .map_or(CATALOG_TOML, |(copy, _)| copy);
    match std::fs::read_to_string(&shared) {
        Ok(text) => assert!(
            text == ours,
            "engine/data/catalog.toml differs from {shared:?}"
        ),
        Err(_) => eprintln!("{shared:?} not found; comparing facts only"),
    }
}

#[test]
fn broken_catalogs_are_refused() {
    let ok = Catalog::parse(CATALOG_TOML).expect("the embedded catalog is valid");
    assert_eq!(ok.tiles.len(), 137);
    let first_tile = CATALOG_TOML.find("[[tile]]").unwrap();
    let head = &CATALOG_TOML[..first_tile];
    let tile = |body: &str| format!("{head}[[tile]]\n{body}\n");
    let cases = [
        // a road side owned by no road
        r#"id = "x/1"
expansion = "base"
count = 1
name = "x"
edges = { N = "road", E = "field", S = "field", W = "field" }
features = [ { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Er", "Sl", "Sr", "Wl", "Wr"], borders = [] } ]"#,
        // a half in two fields
        r#"id = "x/2"
expansion = "base"
count = 1
name = "x"
edges = { N = "field", E = "field", S = "field", W = "field" }
features = [ { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Er", "Sl", "Sr", "Wl", "Wr"], borders = [] }, { id = "f2", kind = "field", halves = ["Nl"], borders = [] } ]"#,
        // a field bordering a road
        r#"id = "x/3"
expansion = "base"
count = 1
name = "x"
edges = { N = "field", E = "road", S = "field", W = "road" }
features = [ { id = "r1", kind = "road", edges = ["E", "W"] }, { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Wr"], borders = ["r1"] }, { id = "f2", kind = "field", halves = ["Er", "Sl", "Sr", "Wl"], borders = [] } ]"#,
        // a city on a field side
        r#"id = "x/4"
expansion = "base"
count = 1
name = "x"
edges = { N = "field", E = "field", S = "field", W = "field" }
features = [ { id = "c1", kind = "city", edges = ["N"] }, { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Er", "Sl", "Sr", "Wl", "Wr"], borders = [] } ]"#,
        // halves of a city side in a field
        r#"id = "x/5"
expansion = "base"
count = 1
name = "x"
edges = { N = "city", E = "field", S = "field", W = "field" }
features = [ { id = "c1", kind = "city", edges = ["N"] }, { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Er", "Sl", "Sr", "Wl", "Wr"], borders = ["c1"] } ]"#,
        // an unknown expansion
        r#"id = "x/6"
expansion = "dragons"
count = 1
name = "x"
edges = { N = "field", E = "field", S = "field", W = "field" }
features = [ { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Er", "Sl", "Sr", "Wl", "Wr"], borders = [] } ]"#,
    ];
    for body in cases {
        let id = body.lines().next().unwrap();
        assert!(Catalog::parse(&tile(body)).is_err(), "accepted {id}");
    }
    // a well-formed one parses, twice is a duplicate id
    let good = r#"id = "x/7"
expansion = "base"
count = 1
name = "x"
edges = { N = "field", E = "field", S = "field", W = "field" }
features = [ { id = "f1", kind = "field", halves = ["Nl", "Nr", "El", "Er", "Sl", "Sr", "Wl", "Wr"], borders = [] } ]"#;
    assert_eq!(Catalog::parse(&tile(good)).unwrap().tiles.len(), 1);
    let twice = format!("{}[[tile]]\n{good}\n", tile(good));
    assert!(Catalog::parse(&twice).is_err());
    assert!(Catalog::parse("not toml [").is_err());
}
