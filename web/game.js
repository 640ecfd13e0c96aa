// The game page: whose turn, the board with the legal placements of the drawn tile,
// the figure spots, the move, scores, history and chat, the analysis (web/analysis.js);
// once it is over, a rematch and the review.
// Follows the live stream (GET /v1/stream) and refreshes when the game moves; polls only
// while the stream is down.

import * as api from "./api.js";
import { el, announce, fail, when, relative, fill, playerLink, playerLinks, rulesLine } from "./pages.js";
import { t, list as words, describeTile } from "./i18n.js";
import { drawBoard, figureIcon, featureName, spotWords, aFigure, figureWord, figureCount, featureWord } from "./board.js";
import { analysisCard, reviewCard } from "./analysis.js";
import { gameTournamentLine } from "./tournaments.js";

/** How often the page looks for news while the live stream is down. */
const POLL_MS = 15000;

/** Tile id → its description (GET /v1/tiles), once the catalog is loaded. */
let tileDescriptions = new Map();

/** A tile type by its description in the reader's words ("a city cap with a straight
 * road"); its catalog id until the catalog is loaded. */
function tileName(id) {
  return describeTile(tileDescriptions.get(id)) || id;
}

/** What one action of GET …/actions does, in words (for the generic decision list). */
function describeAction(a) {
  if (a.type === "pass") return t("action.pass");
  if (a.type === "place_figure" && a.spot) {
    return t("action.put", { figure: aFigure(a.figure), spot: spotWords(a.spot) }) + (/^[NESWC]/.test(a.spot) ? "" : ` (${a.spot})`);
  }
  const words = String(a.type).replace(/_/g, " ");
  const parts = [];
  for (const [k, v] of Object.entries(a)) {
    if (k === "type") continue;
    parts.push(`${k.replace(/_/g, " ")} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  }
  return parts.length ? `${words}: ${parts.join(", ")}` : words;
}

/** A line of history for a decision (HistoryEntry.decision). */
function describeDecision(d, who) {
  switch (d.type) {
    case "game_created":
      return t("history.created");
    case "game_started":
      return t("history.started");
    case "tile_placed":
      return t("history.placed", { who, tile: tileName(d.tile), x: d.x, y: d.y });
    case "figure_placed":
      return t("history.figure", { who, figure: aFigure(d.figure), spot: spotWords(d.spot) });
    case "figure_skipped":
      return t("history.no-figure", { who });
    case "player_resigned":
      return t("history.resigned", { who });
    case "undone":
      return t("history.undone", { who });
    default:
      return `${who}: ${String(d.type).replace(/_/g, " ")}.`;
  }
}

/** Lines for the consequences worth telling (scores, the end). */
function describeConsequences(list, nameOf) {
  const out = [];
  for (const c of list || []) {
    if (c.type === "feature_scored" && c.points > 0) {
      const names = (c.seats || []).length ? words((c.seats || []).map(nameOf)) : t("history.nobody");
      out.push(t(c.final ? "history.scored-final" : "history.scored", { names, count: c.points, feature: featureWord(c.feature) }));
    } else if (c.type === "game_over") {
      out.push(t("history.over"));
    } else if (c.type === "player_left") {
      out.push(t("history.left", { who: nameOf(c.seat) }));
    }
  }
  return out;
}

export async function gamePage(ctx, id) {
  const enc = encodeURIComponent(id);
  const me = api.username();
  /** @type {any} GameView */
  let view = null;
  /** @type {any} PlacementsView */
  let placements = null;
  /** @type {any} ActionsView */
  let actions = null;
  let events = [];
  let chat = [];
  let olderChat = false;
  /** The placement being prepared: the cell, the index into its rotations. */
  let sel = null;
  /** The figure chosen for it: {spot, figure} or null (no figure). */
  let choice = null;
  /** House rule tiles_in_hand: the tile of the hand being placed. */
  let handTile = null;
  let sending = false;
  /** Set when another page replaces this one: nothing more is asked of the server. */
  let left = false;

  const h1 = el("h1", {}, t("game.title", { game: id.slice(0, 8) }));
  const turnline = el("p", { class: "turnline" });
  // the tournament and round the game belongs to, if any
  const tourBox = el("div");
  const panel = el("section", { class: "panel", "aria-labelledby": "h-move" });
  const wrap = el("div", { class: "board-wrap", tabindex: "0", role: "region", "aria-label": t("game.board") });
  const side = el("div", { class: "side" });
  const chatList = el("ol", { class: "chat", "aria-label": t("chat.messages") });
  const chatBox = el("section", { class: "card", "aria-labelledby": "h-chat" }, el("h2", { id: "h-chat" }, t("chat.title")), chatList);
  // the analysis (redrawn as the game moves) and, once it is over, the review
  const analysisBox = el("div");
  const reviewBox = el("div");
  ctx.main.append(
    h1,
    tourBox,
    turnline,
    el("div", { class: "layout" }, panel, wrap, el("div", { class: "aside" }, side, analysisBox, chatBox)),
    reviewBox,
  );

  const seat = () => (view ? view.players.find((p) => p.username === me) : undefined);
  const myTurn = () => Boolean(view && view.pending && me && view.pending.username === me);
  const nameOf = (s) => (view && view.players.find((p) => p.seat === s)?.username) || t("game.seat", { seat: Number(s) + 1 });

  /** The tile to place: the drawn tile, or the chosen tile of the hand (tiles_in_hand). */
  function tileToPlace() {
    if (view && view.pending && view.pending.tile) return view.pending.tile;
    const hand = (view && view.hand) || [];
    if (hand.includes(handTile)) return handTile;
    // the first tile of the hand that fits somewhere
    const fits = placements ? hand.find((id) => placements.placements.some((p) => p.tile === id)) : undefined;
    return fits || hand[0] || null;
  }

  /** Candidate cells of the tile to place: "x,y" → placements there. */
  function candidates() {
    const m = new Map();
    if (!placements) return m;
    const tile = tileToPlace();
    for (const p of placements.placements) {
      if (p.tile && p.tile !== tile) continue;
      const k = `${p.x},${p.y}`;
      if (!m.has(k)) m.set(k, []);
      m.get(k).push(p);
    }
    return m;
  }

  function current() {
    if (!sel) return null;
    const list = candidates().get(`${sel.x},${sel.y}`) || [];
    return list[sel.i % list.length] || null;
  }

  function keepFocus(f) {
    const active = document.activeElement;
    const key = active instanceof HTMLElement ? active.dataset.focus : undefined;
    f();
    if (key) {
      const again = ctx.main.querySelector(`[data-focus="${CSS.escape(key)}"]`);
      if (again instanceof HTMLElement) again.focus({ preventScroll: true });
    }
  }

  let lastKey = null;
  function lastPlaced() {
    for (let i = events.length - 1; i >= 0; i--) {
      const d = events[i].decision;
      if (d && d.type === "tile_placed") return `${d.x},${d.y}`;
    }
    return null;
  }

  function renderTop() {
    const v = view;
    tourBox.replaceChildren(...(v.tournament ? [gameTournamentLine(v.tournament)] : []));
    turnline.replaceChildren();
    if (v.status === "open") {
      turnline.append(t("game.waiting-line", { taken: v.players.length, seats: v.seats }));
    } else if (v.status === "finished") {
      const first = (v.ranking || []).filter((r) => r.rank === 1).map((r) => r.username);
      turnline.append(t("game.over-line"));
      if (first.length) turnline.append(" ", ...fill(t("game.won-by"), { names: playerLinks(first) }));
    } else if (v.pending) {
      const p = v.pending;
      const who = { name: playerLink(p.username) };
      if (p.tile) {
        const tile = tileName(p.tile);
        turnline.append(...(myTurn() ? [t("game.your-turn-drew", { tile })] : fill(t("game.to-play-drew", { tile }), who)));
      }
      else turnline.append(...(myTurn() ? [t("game.your-turn")] : fill(t("game.to-play"), who)));
      if (v.clock && v.clock.deadline) {
        turnline.append(
          ` ${t("game.due")} `,
          el("time", { datetime: v.clock.deadline, title: when(v.clock.deadline) }, relative(v.clock.deadline)),
          ` (${when(v.clock.deadline)})`,
          v.clock.paused ? ` ${t("game.paused")}` : ".",
        );
      }
      if (v.clock && v.clock.banks && v.clock.banks.length) {
        const name = (seat) => (v.players.find((p) => p.seat === seat) || {}).username || String(seat);
        const hours = (m) => t("game.bank-hours", { hours: Math.floor(m / 60), minutes: String(m % 60).padStart(2, "0") });
        turnline.append(
          " ",
          el("span", { class: "banks" }, t("game.banks", { banks: v.clock.banks.map((b) => `${name(b.player)} ${hours(b.minutes_left)}`).join(", ") })),
        );
      }
    }
    turnline.append(` ${t("game.tiles-left", { count: v.tiles_left })}`);
    if (v.hand && v.hand.length) turnline.append(` ${t("game.hand", { tiles: words(v.hand.map(tileName)) })}`);
    const rules = rulesLine(v.rules);
    if (rules) turnline.append(" ", el("span", { class: "house-rules" }, rules));
    if (v.rated) turnline.append(` ${t("game.rated")}`);
    if (v.visibility === "private") turnline.append(` ${t("game.private")}`);
    if (v.status === "active" && v.assistance) turnline.append(` ${t(`game.assistance-${v.assistance}`)}`);
    if (!me) {
      const login = el("a", { href: "/play/login" }, t("game.login-to-play"));
      login.addEventListener("click", () => sessionStorage.setItem("tilepost.next", location.pathname));
      turnline.append(" ", login);
    }
  }

  /** The place_figure decision on its own: the tile just placed and its spots (from …/actions). */
  function figureDecision() {
    if (!myTurn() || view.pending.kind !== "place_figure" || !actions) return null;
    const at = lastPlaced();
    if (!at) return null;
    const [x, y] = at.split(",").map(Number);
    const bySpot = new Map();
    for (const a of actions.actions) {
      if (a.type !== "place_figure") continue;
      if (!bySpot.has(a.spot)) bySpot.set(a.spot, []);
      bySpot.get(a.spot).push(a.figure);
    }
    return { x, y, spots: [...bySpot].map(([spot, figures]) => ({ spot, figures })) };
  }

  function renderBoard() {
    const p = current();
    const yours = myTurn() && placements && view.pending.kind === "place_tile";
    keepFocus(() => {
      const b = drawBoard(wrap, {
        board: view.board,
        players: view.players,
        candidates: yours ? candidates() : undefined,
        preview: yours && p ? { x: p.x, y: p.y, rotation: p.rotation, tile: p.tile || view.pending.tile, spots: p.spots } : null,
        spotsAt: figureDecision(),
        choice,
        last: lastPlaced(),
        mine: seat()?.colour,
        mySeat: seat()?.seat,
        onCell: (x, y) => pickCell(x, y),
        onSpot: (spot, figure) => pickSpot(spot, figure),
      });
      const target = p ? `${p.x},${p.y}` : lastPlaced() || "0,0";
      if (target !== lastKey) {
        lastKey = target;
        const [x, y] = target.split(",").map(Number);
        requestAnimationFrame(() => b.reveal(x, y));
      }
    });
  }

  function pickCell(x, y) {
    if (sel && sel.x === x && sel.y === y) {
      rotate();
      return;
    }
    sel = { x, y, i: 0 };
    choice = null;
    const p = current();
    const n = candidates().get(`${x},${y}`)?.length || 1;
    announce(n > 1 ? t("move.cell-turns", { x, y, rotation: p.rotation, count: n }) : t("move.cell", { x, y, rotation: p.rotation }));
    renderMove();
    renderBoard();
  }

  function rotate() {
    if (!sel) return;
    const n = candidates().get(`${sel.x},${sel.y}`)?.length || 1;
    if (n < 2) {
      announce(t("move.one-way"));
      return;
    }
    sel.i = (sel.i + 1) % n;
    choice = null;
    announce(t("move.turned", { rotation: current().rotation }));
    renderMove();
    renderBoard();
  }

  function pickSpot(spot, figure) {
    choice = spot === null ? null : { spot, figure };
    announce(choice ? t("move.figure-on", { figure: aFigure(figure), spot: spotWords(spot) }) : t("move.no-figure-done"));
    renderMove();
    renderBoard();
  }

  /** Runs a write of the page (`work`: a move, an undo), one at a time, with the
   * panel's buttons off meanwhile. A stale version reloads the game (after `onStale`);
   * a refresh asked for meanwhile runs once it is done. */
  async function sendWith(work, onStale = () => {}) {
    if (sending) return;
    sending = true;
    panel.querySelectorAll("button").forEach((b) => (b.disabled = true));
    try {
      await work();
    } catch (e) {
      if (e instanceof api.ApiProblem && e.code === "stale-version") {
        onStale();
        announce(t("move.stale"), true);
        await load();
      } else {
        fail(e);
        panel.querySelectorAll("button").forEach((b) => (b.disabled = false));
      }
    } finally {
      sending = false;
      if (pollAfterSend) {
        pollAfterSend = false;
        poll();
      }
    }
  }

  function submit(list) {
    const move = (actions) => api.post(`/v1/games/${enc}/moves`, { expected_version: view.version, actions });
    return sendWith(
      async () => {
        const split = list.length === 2 && list[0].type === "place_tile" && (view.expansions || []).length > 0;
        if (!split) {
          await move(list);
          choice = null;
        } else {
          // With expansions the placed tile may lead to another decision before the figure
          // (a robber, a ferry...): send the tile alone, then the chosen figure when it is
          // the next decision (the figure stays chosen on the page otherwise).
          await move([list[0]]);
          const next = await api.get(`/v1/games/${enc}/actions`);
          const want = list[1];
          const a = next.pending && next.pending.username === me && next.pending.kind === "place_figure"
            ? next.actions.find((o) => o.type === want.type && (o.type === "pass" || (o.spot === want.spot && o.figure === want.figure)))
            : undefined;
          if (a) {
            await api.post(`/v1/games/${enc}/moves`, { expected_version: next.version, actions: [a] });
            choice = null;
          }
        }
        sel = null;
        announce(t("move.sent"));
        await load();
      },
      () => {
        sel = null;
        choice = null;
      },
    );
  }

  /** Takes back the caller's last decision (offered when …/actions says `undo`). */
  function undoLast() {
    return sendWith(async () => {
      await api.post(`/v1/games/${enc}/undo`, { expected_version: view.version });
      sel = null;
      choice = null;
      announce(t("move.undone"));
      await load();
    });
  }

  function placeTilePanel() {
    const p = current();
    const tile = tileToPlace();
    const tileImg = el("img", { class: "drawn", src: api.tileSvg(tile, 160), alt: t("move.drawn-alt", { tile: tileName(tile) }) });
    if (p) tileImg.style.transform = `rotate(${p.rotation}deg)`;
    const n = candidates().size;
    const intro = p
      ? t("move.at", { x: p.x, y: p.y, rotation: p.rotation })
      : n
        ? t("move.fits", { count: candidates().size })
        : t("move.fits-nowhere");
    const box = el("div", { class: "move" }, el("div", { class: "drawnbox" }, tileImg), el("div", {}, el("p", { class: "intro" }, intro)));
    const body = /** @type {HTMLElement} */ (box.lastChild);
    const kinds = [...new Set(view.hand || [])];
    if (kinds.length > 1) {
      // tiles in hand: choose the tile to place
      const fs = el("fieldset", { class: "hand" }, el("legend", {}, t("move.hand")));
      for (const id of kinds) {
        const input = el("input", { type: "radio", name: "hand", value: id, checked: id === tile, "data-focus": `hand:${id}` });
        input.addEventListener("change", () => {
          handTile = id;
          sel = null;
          choice = null;
          renderMove();
          renderBoard();
        });
        fs.append(el("label", { class: "check" }, input, " ", el("img", { src: api.tileSvg(id, 48), alt: "" }), ` ${tileName(id)}`));
      }
      body.append(fs);
    }
    if (p) {
      const turns = candidates().get(`${p.x},${p.y}`)?.length || 1;
      const turn = el("button", { type: "button", "data-focus": "turn", disabled: turns < 2, "aria-keyshortcuts": "R" }, t("move.turn"));
      turn.addEventListener("click", rotate);
      const fs = el("fieldset", { class: "figures" }, el("legend", {}, t("move.figure")));
      const radio = (value, label, checked) => {
        const input = el("input", { type: "radio", name: "figure", value, checked, "data-focus": `radio:${value}` });
        input.addEventListener("change", () => {
          if (!value) pickSpot(null, "");
          else {
            const [spot, figure] = value.split("|");
            pickSpot(spot, figure);
          }
        });
        return el("label", { class: "check" }, input, ` ${label}`);
      };
      fs.append(radio("", t("move.no-figure"), !choice));
      for (const s of p.spots) {
        for (const f of s.figures) {
          const v = `${s.spot}|${f}`;
          fs.append(
            radio(
              v,
              t("move.figure-option", { figure: figureWord(f), feature: featureName(s.feature), spot: spotWords(s.spot) }),
              Boolean(choice && choice.spot === s.spot && choice.figure === f),
            ),
          );
        }
      }
      const send = el("button", { type: "button", class: "primary", "data-focus": "submit" }, t("move.submit"));
      send.addEventListener("click", () => {
        const q = current();
        if (!q) return;
        // with tiles in hand the placement names its tile
        const place = { type: "place_tile", x: q.x, y: q.y, rotation: q.rotation, ...(q.tile ? { tile: q.tile } : {}) };
        submit([
          place,
          choice ? { type: "place_figure", figure: choice.figure, spot: choice.spot } : { type: "pass" },
        ]);
      });
      const cancel = el("button", { type: "button", "data-focus": "cancel" }, t("move.other-place"));
      cancel.addEventListener("click", () => {
        sel = null;
        choice = null;
        announce(t("move.choose-cell"));
        renderMove();
        renderBoard();
        const first = wrap.querySelector("button.cand");
        if (first instanceof HTMLElement) first.focus();
      });
      body.append(el("div", { class: "row" }, turn, cancel), fs, el("div", { class: "row" }, send));
    } else if (n) {
      const first = el("button", { type: "button", "data-focus": "first" }, t("move.first-place"));
      first.addEventListener("click", () => {
        const b = wrap.querySelector("button.cand");
        if (b instanceof HTMLElement) {
          b.focus();
          b.scrollIntoView({ block: "nearest", inline: "nearest" });
        }
      });
      body.append(el("div", { class: "row" }, first));
    }
    return box;
  }

  /** The figure on the tile just placed, when it is a decision of its own. */
  function figurePanel() {
    const box = el("div", { class: "move" });
    const body = el("div", {});
    box.append(body);
    const list = actions ? actions.actions : [];
    body.append(el("p", { class: "intro" }, t("move.figure-intro")));
    const fs = el("fieldset", { class: "figures" }, el("legend", {}, t("move.figure")));
    // "No figure" first, as when the figure goes with the tile
    const options = [...list.filter((a) => a.type === "pass"), ...list.filter((a) => a.type === "place_figure")];
    if (choice && !options.some((a) => a.type === "place_figure" && a.spot === choice.spot && a.figure === choice.figure)) choice = null;
    for (const a of options) {
      const value = a.type === "pass" ? "" : `${a.spot}|${a.figure}`;
      const checked = a.type === "pass" ? !choice : Boolean(choice && choice.spot === a.spot && choice.figure === a.figure);
      const input = el("input", { type: "radio", name: "figure", value, checked, "data-focus": `radio:${value}` });
      input.addEventListener("change", () => (a.type === "pass" ? pickSpot(null, "") : pickSpot(a.spot, a.figure)));
      fs.append(el("label", { class: "check" }, input, ` ${a.type === "pass" ? t("move.no-figure") : describeAction(a)}`));
    }
    const send = el("button", { type: "button", class: "primary", "data-focus": "submit" }, t("move.submit-figure"));
    send.addEventListener("click", () => {
      const a = choice ? options.find((o) => o.type === "place_figure" && o.spot === choice.spot && o.figure === choice.figure) : options.find((o) => o.type === "pass");
      if (a) submit([a]);
    });
    if (options.length) body.append(fs, el("div", { class: "row" }, send));
    // the other options of this phase (the Abbot's return, a flying machine, ...)
    const others = list.filter((a) => a.type !== "place_figure" && a.type !== "pass");
    if (others.length) body.append(actionList(others, { "aria-label": t("move.other-options") }));
    return box;
  }

  /** Listed actions as buttons, each posted back as it is. */
  function actionList(list, attrs = {}) {
    const ul = el("ul", { class: "actions", ...attrs });
    list.forEach((a, i) => {
      const b = el("button", { type: "button", "data-focus": `action:${i}` }, describeAction(a));
      b.addEventListener("click", () => submit([a]));
      ul.append(el("li", {}, b));
    });
    return ul;
  }

  function actionsPanel() {
    const box = el("div", { class: "move" });
    const kind = String(view.pending.kind).replace(/_/g, " ");
    box.append(el("p", { class: "intro" }, t("move.decide", { kind })));
    box.append(actionList(actions ? actions.actions : []));
    return box;
  }

  function openPanel() {
    const v = view;
    const box = el("div", { class: "move" });
    const seated = Boolean(seat());
    const invited = v.invitations.find((i) => i.username === me && i.status === "pending");
    const act = (label, path, done) => {
      const b = el("button", { type: "button" }, label);
      b.addEventListener("click", async () => {
        b.disabled = true;
        try {
          await api.post(`/v1/games/${enc}/${path}`);
          announce(done);
          await load();
        } catch (e) {
          b.disabled = false;
          fail(e);
        }
      });
      return b;
    };
    box.append(el("p", { class: "intro" }, ...fill(t("open.players"), { names: playerLinks(v.players.map((p) => p.username)) })));
    const row = el("div", { class: "row" });
    if (me && invited) {
      row.append(act(t("open.accept"), "invitation/accept", t("open.accepted")), act(t("open.decline"), "invitation/decline", t("open.declined")));
    } else if (me && !seated) {
      row.append(act(t("open.join"), "join", t("open.joined")));
    }
    if (me && v.creator === me && v.players.length >= 2) row.append(act(t("open.start"), "start", t("open.started")));
    if (me && seated && v.creator !== me) row.append(act(t("open.leave"), "leave", t("open.left")));
    box.append(row);
    if (me && seated) {
      const form = el(
        "form",
        { class: "row" },
        el("label", { class: "field" }, el("span", {}, t("open.invite-user")), el("input", { name: "username", required: true, autocomplete: "off", autocapitalize: "none" })),
        el("button", { type: "submit" }, t("open.invite")),
      );
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const input = /** @type {HTMLInputElement} */ (form.querySelector("input"));
        try {
          await api.post(`/v1/games/${enc}/invitations`, { username: input.value.trim() });
          announce(t("open.invited-one", { name: input.value.trim() }));
          input.value = "";
          await load();
        } catch (e) {
          fail(e);
        }
      });
      box.append(form);
    }
    const pending = v.invitations.filter((i) => i.status === "pending").map((i) => i.username);
    if (pending.length) box.append(el("p", {}, ...fill(t("open.invited"), { names: playerLinks(pending) })));
    return box;
  }

  /** The end of a game, for its players: a rematch (the others are invited to it). */
  function overPanel() {
    const again = el("button", { type: "button", class: "primary", "data-focus": "rematch" }, t("over.rematch"));
    again.addEventListener("click", async () => {
      again.disabled = true;
      try {
        const g = await api.post(`/v1/games/${enc}/rematch`);
        announce(t("over.rematch-done"));
        ctx.go(`/play/games/${encodeURIComponent(g.id)}`);
      } catch (e) {
        again.disabled = false;
        fail(e);
      }
    });
    return el("div", { class: "move" }, el("div", {}, el("p", { class: "intro" }, t("over.intro")), el("div", { class: "row" }, again)));
  }

  function renderMove() {
    keepFocus(() => {
      panel.replaceChildren();
      if (!view) return;
      let title = null;
      let body = null;
      if (view.status === "open") {
        title = t("open.title");
        body = openPanel();
      } else if (myTurn() && view.pending.kind === "place_tile" && placements) {
        title = t("move.title-tile");
        body = placeTilePanel();
      } else if (myTurn() && view.pending.kind === "place_figure" && figureDecision()) {
        title = t("move.title-figure");
        body = figurePanel();
      } else if (myTurn()) {
        title = t("move.title-decision");
        body = actionsPanel();
      } else if (view.status === "finished" && seat()) {
        title = t("over.title");
        body = overPanel();
      }
      panel.hidden = !title;
      if (title) panel.append(el("h2", { id: "h-move" }, title), body);
      if (title && myTurn() && actions && actions.undo) {
        const undo = el("button", { type: "button", "data-focus": "undo", title: t("move.undo-hint") }, t("move.undo"));
        undo.addEventListener("click", undoLast);
        panel.append(el("div", { class: "row" }, undo));
      }
    });
  }

  function renderSide() {
    const v = view;
    const table = el(
      "table",
      { class: "scores" },
      el("caption", {}, t("scores.title")),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("scores.player")), el("th", { scope: "col" }, t("scores.points")), el("th", { scope: "col" }, t("scores.figures")))),
    );
    const tbody = el("tbody");
    for (const p of v.players) {
      const who = el("th", { scope: "row" }, figureIcon("follower", p.colour, p.seat), " ", playerLink(p.username));
      if (v.pending && v.pending.seat === p.seat) who.append(el("span", { class: "turn-mark" }, ` ${t("scores.to-play")}`));
      if (!p.active) who.append(` ${t("scores.left")}`);
      if (p.bot) who.append(el("span", { class: "bot" }, ` ${t("scores.bot", { level: t(`bot.${p.bot}`) })}`));
      // the expansions' holdings
      const extra = [];
      const g = p.goods;
      if (g && g.wine + g.grain + g.cloth > 0) extra.push(t("scores.goods", { wine: g.wine, grain: g.grain, cloth: g.cloth }));
      if (p.gold) extra.push(t("scores.gold", { count: p.gold }));
      if (typeof p.hand === "number") extra.push(t("scores.hand", { count: p.hand }));
      if (p.track && p.track.length > 1) extra.push(t("scores.track", { meeple: p.track[0], messenger: p.track[1] }));
      if (p.robber != null) extra.push(t("scores.robber", { space: p.robber }));
      if (p.abbey) extra.push(t("scores.abbey"));
      if (extra.length) who.append(el("span", { class: "extra" }, extra.join("; ")));
      const supply = Object.entries(p.supply || {})
        .filter(([, n]) => n > 0)
        .map(([k, n]) => figureCount(k, n))
        .join(", ");
      const tr = el("tr", { class: p.username === me ? "me" : "" }, who, el("td", {}, String(p.score)), el("td", {}, supply || "0"));
      tbody.append(tr);
    }
    table.append(tbody);
    const hist = el("ol", { class: "history", "aria-label": t("history.latest-first") });
    for (const e of [...events].reverse()) {
      const who = e.actor ? e.actor.username : "";
      const lines = [describeDecision(e.decision || {}, who), ...describeConsequences(e.consequences, nameOf)];
      if (e.decided_by) lines.push(t(`history.by-${e.decided_by.replace(/_/g, "-")}`));
      hist.append(el("li", {}, el("time", { datetime: e.at, title: when(e.at) }, `#${e.seq}`), " ", lines.join(" ")));
    }
    side.replaceChildren(
      el("section", { class: "card" }, table),
      ...(automationCard ? [automationCard] : []),
      el("section", { class: "card", "aria-labelledby": "h-hist" }, el("h2", { id: "h-hist" }, t("history.title")), hist),
    );
  }

  // ----- my standing orders and conditional turns (only I see them) -----
  /** @type {HTMLElement | null} */
  let automationCard = null;
  let orders = null;
  let plans = [];
  const ORDER_CHOICES = {
    crop_add: ["ask", "never", "when_possible"],
    crop_remove: ["ask", "ordinary_first", "special_first"],
    freed_wagon: ["ask", "supply"],
    message_figure: ["ask", "meeple", "messenger"],
    robber_victim: ["ask", "leader"],
  };

  async function loadAutomation() {
    if (!me || !seat() || !view || view.status === "finished") {
      automationCard = null;
      return;
    }
    const [o, p] = await Promise.all([
      api.get(`/v1/games/${enc}/orders`),
      view.status === "active" ? api.get(`/v1/games/${enc}/plans`) : { plans: [] },
    ]);
    orders = o;
    plans = p.plans;
    automationCard = renderAutomation();
  }

  async function savePlans(list) {
    try {
      const r = await api.request("PUT", `/v1/games/${enc}/plans`, { plans: list });
      plans = r.plans;
      announce(t("auto.plans-saved", { count: plans.length }));
      await load();
    } catch (e) {
      fail(e);
    }
  }

  function renderAutomation() {
    // only the decisions this game's expansions can ask for
    const applicable = orders.applicable || [];
    if (!applicable.length && view.status !== "active") return null;
    const box = el("section", { class: "card automation", "aria-labelledby": "h-auto" }, el("h2", { id: "h-auto" }, t("auto.title")));
    box.append(el("p", { class: "meta" }, t("auto.intro")));
    const form = el("form", { class: "orders" });
    for (const [kind, values] of Object.entries(ORDER_CHOICES)) {
      if (!applicable.includes(kind)) continue;
      const select = el("select", { name: kind, id: `order-${kind}` });
      const def = orders.defaults[kind];
      select.append(el("option", { value: "", selected: orders.game[kind] == null }, t("auto.default", { answer: t(`auto.${kind}.${def}`) })));
      for (const v of values) select.append(el("option", { value: v, selected: orders.game[kind] === v }, t(`auto.${kind}.${v}`)));
      select.addEventListener("change", async () => {
        try {
          await api.patch(`/v1/games/${enc}/orders`, { [kind]: select.value || null });
          announce(t("auto.order-saved"));
          await load();
        } catch (e) {
          fail(e);
        }
      });
      form.append(el("label", { class: "field", for: `order-${kind}` }, el("span", {}, t(`auto.${kind}`)), select));
    }
    if (applicable.length) box.append(form);
    if (view.status !== "active") return box;
    box.append(el("h3", {}, t("auto.plans")));
    const ul = el("ul", { class: "plans" });
    for (const p of plans) {
      const [place, then] = p.actions;
      const what = t("auto.plan-line", { tile: tileName(p.tile), x: place.x, y: place.y, rotation: place.rotation })
        + " " + (then ? (then.type === "pass" ? t("auto.plan-no-figure") : t("auto.plan-figure", { figure: aFigure(then.figure), spot: spotWords(then.spot) })) : t("auto.plan-ask-figure"));
      const drop = el("button", { type: "button" }, t("auto.plan-drop"));
      drop.addEventListener("click", () => savePlans(plans.filter((q) => q.tile !== p.tile)));
      ul.append(el("li", {}, what, " ", drop));
    }
    if (!plans.length) ul.append(el("li", { class: "meta" }, t("auto.no-plans")));
    box.append(ul);
    const tiles = (view.tiles_left_by_type || []).filter((c) => c.count > 0).map((c) => c.tile);
    const tile = el("select", { name: "tile", id: "plan-tile" }, ...tiles.map((id) => el("option", { value: id }, `${tileName(id)} (${id})`)));
    const num = (name, label) => el("label", { class: "field" }, el("span", {}, label), el("input", { name, type: "number", required: true, step: "1", value: "0" }));
    const rot = el("select", { name: "rotation" }, ...[0, 90, 180, 270].map((r) => el("option", { value: String(r) }, `${r}°`)));
    const then = el("select", { name: "then" },
      el("option", { value: "" }, t("auto.plan-ask-figure")),
      el("option", { value: "pass" }, t("auto.plan-no-figure")),
      el("option", { value: "follower" }, t("auto.plan-follower")));
    const spot = el("input", { name: "spot", maxlength: 16, placeholder: "N, E, C, Nl…", autocomplete: "off" });
    const add = el("form", { class: "plan-form" },
      el("label", { class: "field", for: "plan-tile" }, el("span", {}, t("auto.plan-tile")), tile),
      num("x", "x"), num("y", "y"),
      el("label", { class: "field" }, el("span", {}, t("auto.plan-rotation")), rot),
      el("label", { class: "field" }, el("span", {}, t("auto.plan-then")), then),
      el("label", { class: "field" }, el("span", {}, t("auto.plan-spot")), spot),
      el("button", { type: "submit" }, t("auto.plan-add")));
    add.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const data = new FormData(add);
      const actions = [{ type: "place_tile", x: Number(data.get("x")), y: Number(data.get("y")), rotation: Number(data.get("rotation")) }];
      if (data.get("then") === "pass") actions.push({ type: "pass" });
      if (data.get("then") === "follower") actions.push({ type: "place_figure", figure: "follower", spot: String(data.get("spot") || "").trim() });
      const id = String(data.get("tile"));
      savePlans([...plans.filter((q) => q.tile !== id), { tile: id, actions }]);
    });
    if (tiles.length) box.append(add);
    return box;
  }

  function renderChat() {
    chatList.replaceChildren(
      ...(olderChat ? [el("li", { class: "meta" }, t("chat.earlier"))] : []),
      ...chat.map((m) => el("li", {}, el("strong", {}, playerLink(m.username)), " ", el("time", { datetime: m.at }, when(m.at)), el("p", {}, m.text))),
    );
    if (!chat.length) chatList.append(el("li", { class: "meta" }, t("chat.none")));
  }

  // the chat's post box is made once (its text survives refreshes)
  if (me) {
    const text = el("textarea", { id: "chat-text", name: "text", rows: 2, maxlength: 1000, required: true });
    const form = el(
      "form",
      { class: "chatform" },
      el("label", { for: "chat-text" }, t("chat.message")),
      text,
      el("button", { type: "submit" }, t("chat.send")),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const said = /** @type {HTMLTextAreaElement} */ (text).value.trim();
      if (!said) return;
      try {
        await api.post(`/v1/games/${enc}/chat`, { text: said });
        /** @type {HTMLTextAreaElement} */ (text).value = "";
        await loadChat();
      } catch (e) {
        fail(e);
      }
    });
    chatBox.append(form);
  }

  // the chat is paged: the latest 50 messages (the page comes newest first), shown in
  // the order written; older ones stay on the server
  async function loadChat() {
    const c = await api.get(`/v1/games/${enc}/chat?order=newest&limit=50`);
    chat = [...c.messages].reverse();
    olderChat = Boolean(c.next_cursor);
    renderChat();
  }

  async function load() {
    const v = await api.get(`/v1/games/${enc}`);
    const after = Math.max(0, v.version - 40);
    const [ev, pl, ac, cat] = await Promise.all([
      api.get(`/v1/games/${enc}/events?after=${after}&limit=200`),
      v.pending && me && v.pending.username === me && v.pending.kind === "place_tile" ? api.get(`/v1/games/${enc}/placements`) : null,
      v.pending && me && v.pending.username === me && v.pending.kind !== "place_tile" ? api.get(`/v1/games/${enc}/actions`) : null,
      // the tile names; without the catalog the page names tiles by their ids
      tileDescriptions.size ? null : api.tiles().catch(() => null),
    ]);
    if (cat) tileDescriptions = new Map(cat.tiles.map((x) => [x.id, x.description]));
    view = v;
    events = ev.events;
    placements = pl;
    actions = ac;
    if (sel && !current()) {
      sel = null;
      choice = null;
    }
    await loadAutomation();
    renderTop();
    renderMove();
    renderBoard();
    renderSide();
    await loadChat();
    // the analysis takes its time: the page does not wait for it
    loadAnalysis();
    wrap.dataset.version = String(view.version);
    ctx.main.dataset.version = String(view.version);
  }

  /** The analysis of the position, and once the game is over its review (made once);
   * one request at a time, the latest version last. */
  let analysedAt = -1;
  let reviewed = false;
  let analysing = false;
  async function loadAnalysis() {
    if (left || !view || view.version === analysedAt || analysing) return;
    analysing = true;
    analysedAt = view.version;
    try {
      const card = await analysisCard(view, tileName, nameOf);
      analysisBox.replaceChildren(...(card ? [card] : []));
      if (view.status === "finished" && !reviewed && !left) {
        reviewed = true;
        const describe = (e) => [describeDecision(e.decision || {}, e.actor ? e.actor.username : ""), ...describeConsequences(e.consequences, nameOf)].join(" ");
        reviewBox.replaceChildren(await reviewCard(view, { nameOf, describe, describeAction, isPlayer: Boolean(seat()), onLeave: ctx.onLeave }));
      }
    } catch (e) {
      fail(e);
    } finally {
      analysing = false;
    }
    // the game moved on meanwhile
    if (view && view.version !== analysedAt) loadAnalysis();
  }

  /** Refreshes when the game moved (someone else played). */
  let polls = 0;
  // a refresh asked for while a move is being sent runs once the move is sent
  let pollAfterSend = false;
  async function poll() {
    if (document.hidden) return;
    if (sending) {
      pollAfterSend = true;
      return;
    }
    try {
      const v = await api.get(`/v1/games/${enc}`);
      if (!view || v.version !== view.version) {
        const wasMine = myTurn();
        await load();
        if (!wasMine && myTurn()) announce(t("game.your-turn-now"));
      } else {
        await loadChat();
      }
    } catch (e) {
      fail(e);
    }
    polls += 1;
    ctx.main.dataset.polls = String(polls);
  }

  // the live stream says when this game moves or its chat speaks; while it is down, the
  // page polls
  let live = false;
  const closeStream = api.username()
    ? api.stream(
        (type, body) => {
          const gid = body && body.data && body.data.game_id;
          if (type === "stream.reset") poll();
          else if (gid !== id) return;
          else if (type === "game.chat") loadChat().catch(fail);
          else if (type === "game.move_made" && view && body.data.version === view.version) return;
          else poll();
        },
        (open) => {
          live = open;
          ctx.main.dataset.live = open ? "open" : "closed";
          // what happened while it was down
          if (open && view) poll();
        },
      )
    : () => {};
  const timer = setInterval(() => {
    if (live) return;
    if (!myTurn()) poll();
    else loadChat().catch(fail);
  }, POLL_MS);
  const onFocus = () => poll();
  const onKey = (ev) => {
    if (ev.key !== "r" && ev.key !== "R") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = /** @type {HTMLElement} */ (ev.target);
    const typing = target instanceof HTMLInputElement ? !["radio", "checkbox", "button"].includes(target.type) : target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || Boolean(target && target.isContentEditable);
    if (typing) return;
    if (!sel) return;
    ev.preventDefault();
    rotate();
  };
  window.addEventListener("focus", onFocus);
  document.addEventListener("keydown", onKey);
  ctx.onLeave(() => {
    left = true;
    clearInterval(timer);
    closeStream();
    window.removeEventListener("focus", onFocus);
    document.removeEventListener("keydown", onKey);
  });

  await load();
}
