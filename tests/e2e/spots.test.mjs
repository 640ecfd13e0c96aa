// The figure spots of a placement on the board: every named spot's centre is clear of
// every other spot's button on the narrowest cell, so that each can be clicked where it
// is drawn (two of them once covered each other at a tile's corner).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const board = readFileSync(path.join(root, "web", "board.js"), "utf8");
const css = readFileSync(path.join(root, "web", "style.css"), "utf8");

test("no figure spot's centre lies under another spot's button", () => {
  const table = board.match(/const SPOT_XY = \{([\s\S]*?)\};/);
  assert.ok(table, "SPOT_XY is in web/board.js");
  const spots = [...table[1].matchAll(/(\w+): \[(\d+), (\d+)\]/g)].map((m) => [m[1], Number(m[2]), Number(m[3])]);
  assert.equal(spots.length, 17, "sides, half-sides, centre and corners");
  const cells = [...css.matchAll(/--cell: (\d+)px/g)].map((m) => Number(m[1]));
  assert.ok(cells.length > 0, "--cell is in web/style.css");
  const cell = Math.min(...cells);
  const spot = css.match(/\n\.spot \{[^}]*?width: (\d+)px/);
  assert.ok(spot, ".spot's width is in web/style.css");
  const radius = Number(spot[1]) / 2;
  for (let i = 0; i < spots.length; i++) {
    for (let j = i + 1; j < spots.length; j++) {
      const [a, ax, ay] = spots[i];
      const [b, bx, by] = spots[j];
      const apart = (Math.hypot(ax - bx, ay - by) / 100) * cell;
      assert.ok(apart > radius, `${a} and ${b} are ${apart.toFixed(1)} px apart on a ${cell} px cell`);
    }
  }
});
