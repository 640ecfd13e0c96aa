//! The River: the spring as start tile, the river stack played first with the lake last,
//! and the placement rules for river tiles (continue the open end, no immediate U-turn,
//! never point the new open end at an occupied cell). Fields split by the river and the
//! ban on figures on water come from the catalog and the *figure allowed* hook.

use super::prelude::*;
use crate::catalog::{catalog, EdgeKind, TileType};
use crate::geometry::{Dir, Rotation};

/// The river's single open end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RiverEnd {
    /// The empty cell the next river tile must fill.
    pub cell: Pos,
    /// The side of that cell that faces the river.
    pub from: Dir,
    /// Turn of the last river tile: -1 left, 0 straight (or the spring), 1 right.
    pub last_turn: i8,
}

/// The River's hooks: it sets up the river's open end at the spring.
pub(crate) struct River;

impl Hooks for River {
    /// A river tile can only continue the open end.
    #[inline]
    fn placements(&self, t: &Table, tt: &TileType, out: &mut Vec<(Pos, Rotation)>) -> bool {
        if !is_river_tile(tt) {
            return false;
        }
        if let Some(end) = t.river {
            for r in Rotation::ALL {
                if t.board.fits(tt, end.cell, r)
                    && check(t.river, &t.board, tt, end.cell, r).is_ok()
                {
                    out.push((end.cell, r));
                }
            }
        }
        true
    }

    /// A river tile continues the open end, without a U-turn, its new end facing an empty
    /// cell.
    #[inline]
    fn tile_check(
        &self,
        t: &Table,
        tt: &TileType,
        pos: Pos,
        r: Rotation,
    ) -> Result<(), &'static str> {
        if is_river_tile(tt) {
            check(t.river, &t.board, tt, pos, r)?;
        }
        Ok(())
    }

    /// A river tile moves the open end on (or closes it: the lake).
    #[inline]
    fn tile_placing(&self, t: &mut Table, tt: &TileType, pos: Pos, r: Rotation) {
        if is_river_tile(tt) {
            t.river = check(t.river, &t.board, tt, pos, r).unwrap_or(None);
        }
    }

    /// The river's open end at the spring, the start tile (placed next with rotation 0).
    fn set_up(&self, t: &mut Table) {
        if t.expansions.contains(Expansion::River) {
            let start = catalog().get(catalog().start_tile_for(t.expansions));
            t.river = spring_end(start, Rotation::R0);
        }
    }
}

impl Decisions for River {}

/// Does this tile type carry a river?
pub fn is_river_tile(t: &TileType) -> bool {
    t.edges.contains(&EdgeKind::River)
}

/// The open end after the spring is placed at (0,0) with rotation `r`.
pub fn spring_end(t: &TileType, r: Rotation) -> Option<RiverEnd> {
    Dir::ALL
        .into_iter()
        .find(|d| t.edge_at(r, *d) == EdgeKind::River)
        .map(|d| RiverEnd {
            cell: Pos::new(0, 0).step(d),
            from: d.opposite(),
            last_turn: 0,
        })
}

/// Checks a river tile placement (edge matching is checked by the board). Returns the
/// river's new open end (`None` once the lake closes it), or why the placement is illegal.
pub fn check(
    end: Option<RiverEnd>,
    board: &Board,
    t: &TileType,
    p: Pos,
    r: Rotation,
) -> Result<Option<RiverEnd>, &'static str> {
    let end = end.ok_or("the river has no open end")?;
    if p != end.cell {
        return Err("a river tile must continue the river's open end");
    }
    if t.edge_at(r, end.from) != EdgeKind::River {
        return Err("a river tile must continue the river's open end");
    }
    let mut exit = None;
    for d in Dir::ALL {
        if d != end.from && t.edge_at(r, d) == EdgeKind::River {
            exit = Some(d);
        }
    }
    let Some(out) = exit else {
        return Ok(None); // the lake
    };
    let flow = end.from.opposite();
    let turn: i8 = if out == flow {
        0
    } else if out == flow.rotate(Rotation::quarter_turns(1)) {
        1
    } else {
        -1
    };
    if turn != 0 && turn == end.last_turn {
        return Err("the river may not turn the same way twice in a row");
    }
    let next = p.step(out);
    if board.is_occupied(next) {
        return Err("the river's new open end would face a tile");
    }
    Ok(Some(RiverEnd {
        cell: next,
        from: out.opposite(),
        last_turn: turn,
    }))
}

/// The river on a tile, for its description: the spring, the lake, a straight stretch
/// or a bend.
pub(crate) fn describe_tile(tile: &TileType, w: &mut crate::tile_words::Words) {
    for r in tile
        .features
        .iter()
        .filter(|f| f.kind == crate::catalog::FeatureKind::River)
    {
        w.shape(match r.edges.count_ones() {
            0 | 1 if tile.start_with_river => "river-spring",
            0 | 1 => "river-lake",
            2 if crate::tile_words::opposite(r.edges) => "river-straight",
            _ => "river-bend",
        });
    }
}
