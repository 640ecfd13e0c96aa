//! Colours. Player colours are the Okabe-Ito palette, chosen to stay distinct for the
//! common kinds of colour blindness; every figure also carries a dark outline, a white
//! halo and its seat number, so colour is never the only cue.

/// Player colours by seat (Okabe-Ito): orange, sky blue, bluish green, yellow, blue,
/// vermillion.
pub const PLAYERS: [&str; 6] = [
    "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00",
];

/// Colour of the seat number drawn on a figure of that seat (dark on light colours).
pub const PLAYER_INK: [&str; 6] = [
    "#1A1A1A", "#1A1A1A", "#FFFFFF", "#1A1A1A", "#FFFFFF", "#FFFFFF",
];

/// The colour of seat `i` (wraps after six seats).
pub fn player(i: u8) -> &'static str {
    PLAYERS[i as usize % PLAYERS.len()]
}

pub fn player_ink(i: u8) -> &'static str {
    PLAYER_INK[i as usize % PLAYER_INK.len()]
}

pub const OUTLINE: &str = "#1A1A1A";
pub const BOARD_BG: &str = "#EDE6D6";
pub const TILE_EDGE: &str = "#4A3B26";

pub const GRASS: &str = "#93BF5E";
pub const GRASS_DARK: &str = "#76A447";
pub const GRASS_LIGHT: &str = "#A9CF72";
pub const HEDGE: &str = "#3F7A35";

pub const CITY: &str = "#E6D3A3";
pub const CITY_SHADE: &str = "#D7C08A";
pub const ROOF: &str = "#B8573A";
pub const ROOF_DARK: &str = "#8E3F2A";
pub const WALL: &str = "#6E6257";
pub const WALL_LIGHT: &str = "#B9AE9C";

pub const ROAD: &str = "#F3EAD3";
pub const ROAD_EDGE: &str = "#8C7B5A";

pub const WATER: &str = "#4A98D3";
pub const WATER_LIGHT: &str = "#9CCDF0";
pub const WATER_EDGE: &str = "#2D6E9E";

pub const STONE: &str = "#F1E8D8";
pub const STONE_EDGE: &str = "#7E7466";

pub const PENNANT: &str = "#1F4E9C";
pub const PENNANT_MARK: &str = "#FFFFFF";
pub const GOLD: &str = "#E8B923";
pub const GOLD_DARK: &str = "#9A7410";
pub const MAGIC: &str = "#6C3FA0";
pub const ROBBER: &str = "#3B3B3B";

pub const HIGHLIGHT: &str = "#FFFFFF";
