// The game page: whose turn, the board with the legal placements of the drawn tile,
// the figure spots, the move, scores, history and chat. Polls while it is not my turn.

import * as api from "./api.js";
import { el, announce, fail, when, relative } from "./pages.js";
import { drawBoard, figureIcon, featureName, spotWords, aFigure } from "./board.js";

const POLL_MS = 15000;

/** What one action of GET …/actions does, in words (for the generic decision list). */
function describeAction(a) {
  if (a.type === "pass") return "Pass";
  if (a.type === "place_figure" && a.spot) {
    return `Put ${aFigure(a.figure)} on the ${spotWords(a.spot)}${/^[NESWC]/.test(a.spot) ? "" : ` (${a.spot})`}`;
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
      return "The game was created.";
    case "game_started":
      return "The game started.";
    case "tile_placed":
      return `${who} placed ${d.tile} at ${d.x}, ${d.y}.`;
    case "figure_placed":
      return `${who} put ${aFigure(d.figure)} on it (${spotWords(d.spot)}).`;
    case "figure_skipped":
      return `${who} placed no figure.`;
    case "player_resigned":
      return `${who} resigned.`;
    default:
      return `${who}: ${String(d.type).replace(/_/g, " ")}.`;
  }
}

/** Lines for the consequences worth telling (scores, the end). */
function describeConsequences(list, nameOf) {
  const out = [];
  for (const c of list || []) {
    if (c.type === "feature_scored" && c.points > 0) {
      const names = (c.seats || []).map(nameOf).join(" and ") || "nobody";
      out.push(`${names} scored ${c.points} for a ${c.feature || "feature"}${c.final ? " (end of game)" : ""}.`);
    } else if (c.type === "game_over") {
      out.push("The game is over.");
    } else if (c.type === "player_left") {
      out.push(`${nameOf(c.seat)} left the game.`);
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
  let sending = false;

  const h1 = el("h1", {}, `Game ${id.slice(0, 8)}`);
  const turnline = el("p", { class: "turnline" });
  const panel = el("section", { class: "panel", "aria-labelledby": "h-move" });
  const wrap = el("div", { class: "board-wrap", tabindex: "0", role: "region", "aria-label": "Board (scrolls)" });
  const side = el("div", { class: "side" });
  const chatList = el("ol", { class: "chat", "aria-label": "Chat messages" });
  const chatBox = el("section", { class: "card", "aria-labelledby": "h-chat" }, el("h2", { id: "h-chat" }, "Chat"), chatList);
  ctx.main.append(
    h1,
    turnline,
    el("div", { class: "layout" }, panel, wrap, el("div", { class: "aside" }, side, chatBox)),
  );

  const seat = () => (view ? view.players.find((p) => p.username === me) : undefined);
  const myTurn = () => Boolean(view && view.pending && me && view.pending.username === me);
  const nameOf = (s) => (view && view.players.find((p) => p.seat === s)?.username) || `seat ${Number(s) + 1}`;

  /** Candidate cells of the drawn tile: "x,y" → placements there. */
  function candidates() {
    const m = new Map();
    if (!placements) return m;
    for (const p of placements.placements) {
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
    turnline.replaceChildren();
    if (v.status === "open") {
      turnline.append(`Waiting for players: ${v.players.length} of ${v.seats} seats taken.`);
    } else if (v.status === "finished") {
      const first = (v.ranking || []).filter((r) => r.rank === 1).map((r) => r.username);
      turnline.append(`The game is over. ${first.length ? `Won by ${first.join(" and ")}.` : ""}`);
    } else if (v.pending) {
      const p = v.pending;
      turnline.append(myTurn() ? "Your turn" : `${p.username} to play`);
      if (p.tile) turnline.append(myTurn() ? `: you drew ${p.tile}` : ` (drew ${p.tile})`);
      turnline.append(".");
      if (v.clock && v.clock.deadline) {
        turnline.append(
          " Due ",
          el("time", { datetime: v.clock.deadline, title: when(v.clock.deadline) }, relative(v.clock.deadline)),
          v.clock.paused ? " (clock paused: vacation)." : ".",
        );
      }
    }
    turnline.append(` ${v.tiles_left} tiles left.`);
    if (!me) {
      const login = el("a", { href: "/play/login" }, "Log in to play");
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
        preview: yours && p ? { x: p.x, y: p.y, rotation: p.rotation, tile: view.pending.tile, spots: p.spots } : null,
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
    announce(`Tile at ${x}, ${y}, turned ${p.rotation} degrees${n > 1 ? `; ${n} ways fit: press Turn (or R) for the next` : ""}.`);
    renderMove();
    renderBoard();
  }

  function rotate() {
    if (!sel) return;
    const n = candidates().get(`${sel.x},${sel.y}`)?.length || 1;
    if (n < 2) {
      announce("Only one way fits here.");
      return;
    }
    sel.i = (sel.i + 1) % n;
    choice = null;
    announce(`Turned to ${current().rotation} degrees.`);
    renderMove();
    renderBoard();
  }

  function pickSpot(spot, figure) {
    choice = spot === null ? null : { spot, figure };
    announce(choice ? `${aFigure(figure).replace(/^a/, "A")} on the ${spotWords(spot)}.` : "No figure.");
    renderMove();
    renderBoard();
  }

  async function submit(list) {
    if (sending) return;
    sending = true;
    panel.querySelectorAll("button").forEach((b) => (b.disabled = true));
    const move = (actions) => api.post(`/v1/games/${enc}/moves`, { expected_version: view.version, actions });
    try {
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
      announce("Move sent.");
      await load();
    } catch (e) {
      if (e instanceof api.ApiProblem && e.code === "stale-version") {
        sel = null;
        choice = null;
        announce("The game had moved on since this page was loaded: it is reloaded now. Please look again.", true);
        await load();
      } else {
        fail(e);
        panel.querySelectorAll("button").forEach((b) => (b.disabled = false));
      }
    } finally {
      sending = false;
    }
  }

  function placeTilePanel() {
    const p = current();
    const tileImg = el("img", { class: "drawn", src: api.tileSvg(view.pending.tile, 160), alt: `The drawn tile, ${view.pending.tile}` });
    if (p) tileImg.style.transform = `rotate(${p.rotation}deg)`;
    const n = placements.placements.length;
    const intro = p
      ? `At ${p.x}, ${p.y}, turned ${p.rotation}°.`
      : n
        ? `It fits in ${candidates().size} places: choose one of the highlighted cells on the board.`
        : "It fits nowhere.";
    const box = el("div", { class: "move" }, el("div", { class: "drawnbox" }, tileImg), el("div", {}, el("p", { class: "intro" }, intro)));
    const body = /** @type {HTMLElement} */ (box.lastChild);
    if (p) {
      const turns = candidates().get(`${p.x},${p.y}`)?.length || 1;
      const turn = el("button", { type: "button", "data-focus": "turn", disabled: turns < 2, "aria-keyshortcuts": "R" }, "Turn (R)");
      turn.addEventListener("click", rotate);
      const fs = el("fieldset", { class: "figures" }, el("legend", {}, "Figure"));
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
      fs.append(radio("", "No figure", !choice));
      for (const s of p.spots) {
        for (const f of s.figures) {
          const v = `${s.spot}|${f}`;
          fs.append(
            radio(
              v,
              `${f.replace(/_/g, " ")} on the ${featureName(s.feature)} (${spotWords(s.spot)})`,
              Boolean(choice && choice.spot === s.spot && choice.figure === f),
            ),
          );
        }
      }
      const send = el("button", { type: "button", class: "primary", "data-focus": "submit" }, "Submit move");
      send.addEventListener("click", () => {
        const q = current();
        if (!q) return;
        submit([
          { type: "place_tile", x: q.x, y: q.y, rotation: q.rotation },
          choice ? { type: "place_figure", figure: choice.figure, spot: choice.spot } : { type: "pass" },
        ]);
      });
      const cancel = el("button", { type: "button", "data-focus": "cancel" }, "Choose another place");
      cancel.addEventListener("click", () => {
        sel = null;
        choice = null;
        announce("Choose a highlighted cell on the board.");
        renderMove();
        renderBoard();
        const first = wrap.querySelector("button.cand");
        if (first instanceof HTMLElement) first.focus();
      });
      body.append(el("div", { class: "row" }, turn, cancel), fs, el("div", { class: "row" }, send));
    } else if (n) {
      const first = el("button", { type: "button", "data-focus": "first" }, "Go to the first place");
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
    body.append(el("p", { class: "intro" }, "Put a figure on the tile just placed (outlined on the board), or none."));
    const fs = el("fieldset", { class: "figures" }, el("legend", {}, "Figure"));
    // "No figure" first, as when the figure goes with the tile
    const options = [...list.filter((a) => a.type === "pass"), ...list.filter((a) => a.type === "place_figure")];
    if (choice && !options.some((a) => a.type === "place_figure" && a.spot === choice.spot && a.figure === choice.figure)) choice = null;
    for (const a of options) {
      const value = a.type === "pass" ? "" : `${a.spot}|${a.figure}`;
      const checked = a.type === "pass" ? !choice : Boolean(choice && choice.spot === a.spot && choice.figure === a.figure);
      const input = el("input", { type: "radio", name: "figure", value, checked, "data-focus": `radio:${value}` });
      input.addEventListener("change", () => (a.type === "pass" ? pickSpot(null, "") : pickSpot(a.spot, a.figure)));
      fs.append(el("label", { class: "check" }, input, ` ${a.type === "pass" ? "No figure" : describeAction(a)}`));
    }
    const send = el("button", { type: "button", class: "primary", "data-focus": "submit" }, "Submit");
    send.addEventListener("click", () => {
      const a = choice ? options.find((o) => o.type === "place_figure" && o.spot === choice.spot && o.figure === choice.figure) : options.find((o) => o.type === "pass");
      if (a) submit([a]);
    });
    if (options.length) body.append(fs, el("div", { class: "row" }, send));
    // the other options of this phase (the Abbot's return, a flying machine, ...)
    const others = list.filter((a) => a.type !== "place_figure" && a.type !== "pass");
    if (others.length) body.append(actionList(others, { "aria-label": "Other options" }));
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
    box.append(el("p", { class: "intro" }, `Decide: ${kind}.`));
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
    box.append(el("p", { class: "intro" }, `Players: ${v.players.map((p) => p.username).join(", ")}. Share this page's address to invite others.`));
    const row = el("div", { class: "row" });
    if (me && invited) {
      row.append(act("Accept the invitation", "invitation/accept", "Invitation accepted."), act("Decline", "invitation/decline", "Invitation declined."));
    } else if (me && !seated) {
      row.append(act("Join this game", "join", "You joined the game."));
    }
    if (me && v.creator === me && v.players.length >= 2) row.append(act("Start now", "start", "The game has started."));
    if (me && seated && v.creator !== me) row.append(act("Leave", "leave", "You left the game."));
    box.append(row);
    if (me && seated) {
      const form = el(
        "form",
        { class: "row" },
        el("label", { class: "field" }, el("span", {}, "Invite a user"), el("input", { name: "username", required: true, autocomplete: "off", autocapitalize: "none" })),
        el("button", { type: "submit" }, "Invite"),
      );
      form.addEventListener("submit", async (ev) => {
        ev.preventDefault();
        const input = /** @type {HTMLInputElement} */ (form.querySelector("input"));
        try {
          await api.post(`/v1/games/${enc}/invitations`, { username: input.value.trim() });
          announce(`${input.value.trim()} is invited.`);
          input.value = "";
          await load();
        } catch (e) {
          fail(e);
        }
      });
      box.append(form);
    }
    const pending = v.invitations.filter((i) => i.status === "pending").map((i) => i.username);
    if (pending.length) box.append(el("p", {}, `Invited: ${pending.join(", ")}.`));
    return box;
  }

  function renderMove() {
    keepFocus(() => {
      panel.replaceChildren();
      if (!view) return;
      let title = null;
      let body = null;
      if (view.status === "open") {
        title = "Waiting for players";
        body = openPanel();
      } else if (myTurn() && view.pending.kind === "place_tile" && placements) {
        title = "Your move: place the tile";
        body = placeTilePanel();
      } else if (myTurn() && view.pending.kind === "place_figure" && figureDecision()) {
        title = "Your move: a figure";
        body = figurePanel();
      } else if (myTurn()) {
        title = "Your decision";
        body = actionsPanel();
      }
      panel.hidden = !title;
      if (title) panel.append(el("h2", { id: "h-move" }, title), body);
    });
  }

  function renderSide() {
    const v = view;
    const table = el(
      "table",
      { class: "scores" },
      el("caption", {}, "Scores"),
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Player"), el("th", { scope: "col" }, "Points"), el("th", { scope: "col" }, "Figures left"))),
    );
    const tbody = el("tbody");
    for (const p of v.players) {
      const who = el("th", { scope: "row" }, figureIcon("follower", p.colour, p.seat), ` ${p.username}`);
      if (v.pending && v.pending.seat === p.seat) who.append(el("span", { class: "turn-mark" }, " (to play)"));
      if (!p.active) who.append(" (left)");
      // the expansions' holdings
      const extra = [];
      const g = p.goods;
      if (g && g.wine + g.grain + g.cloth > 0) extra.push(`wine ${g.wine}, grain ${g.grain}, cloth ${g.cloth}`);
      if (p.gold) extra.push(`${p.gold} gold`);
      if (p.track && p.track.length > 1) extra.push(`meeple ${p.track[0]}, messenger ${p.track[1]} on the track`);
      if (p.robber != null) extra.push(`robber on space ${p.robber}`);
      if (p.abbey) extra.push("abbey in hand");
      if (extra.length) who.append(el("span", { class: "extra" }, extra.join("; ")));
      const supply = Object.entries(p.supply || {})
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k.replace(/_/g, " ")}${n > 1 ? "s" : ""}`)
        .join(", ");
      const tr = el("tr", { class: p.username === me ? "me" : "" }, who, el("td", {}, String(p.score)), el("td", {}, supply || "0"));
      tbody.append(tr);
    }
    table.append(tbody);
    const hist = el("ol", { class: "history", "aria-label": "Latest first" });
    for (const e of [...events].reverse()) {
      const who = e.actor ? e.actor.username : "";
      const lines = [describeDecision(e.decision || {}, who), ...describeConsequences(e.consequences, nameOf)];
      hist.append(el("li", {}, el("time", { datetime: e.at, title: when(e.at) }, `#${e.seq}`), " ", lines.join(" ")));
    }
    side.replaceChildren(
      el("section", { class: "card" }, table),
      el("section", { class: "card", "aria-labelledby": "h-hist" }, el("h2", { id: "h-hist" }, "History"), hist),
    );
  }

  function renderChat() {
    chatList.replaceChildren(
      ...(olderChat ? [el("li", { class: "meta" }, "Earlier messages are not shown.")] : []),
      ...chat.map((m) => el("li", {}, el("strong", {}, m.username), " ", el("time", { datetime: m.at }, when(m.at)), el("p", {}, m.text))),
    );
    if (!chat.length) chatList.append(el("li", { class: "meta" }, "No messages yet."));
  }

  // the chat's post box is made once (its text survives refreshes)
  if (me) {
    const text = el("textarea", { id: "chat-text", name: "text", rows: 2, maxlength: 1000, required: true });
    const form = el(
      "form",
      { class: "chatform" },
      el("label", { for: "chat-text" }, "Message"),
      text,
      el("button", { type: "submit" }, "Send"),
    );
    form.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const t = /** @type {HTMLTextAreaElement} */ (text).value.trim();
      if (!t) return;
      try {
        await api.post(`/v1/games/${enc}/chat`, { text: t });
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
    const [ev, pl, ac] = await Promise.all([
      api.get(`/v1/games/${enc}/events?after=${after}&limit=200`),
      v.pending && me && v.pending.username === me && v.pending.kind === "place_tile" ? api.get(`/v1/games/${enc}/placements`) : null,
      v.pending && me && v.pending.username === me && v.pending.kind !== "place_tile" ? api.get(`/v1/games/${enc}/actions`) : null,
    ]);
    view = v;
    events = ev.events;
    placements = pl;
    actions = ac;
    if (sel && !current()) {
      sel = null;
      choice = null;
    }
    renderTop();
    renderMove();
    renderBoard();
    renderSide();
    await loadChat();
    wrap.dataset.version = String(view.version);
    ctx.main.dataset.version = String(view.version);
  }

  /** Refreshes when the game moved (someone else played). */
  let polls = 0;
  async function poll() {
    if (document.hidden || sending) return;
    try {
      const v = await api.get(`/v1/games/${enc}`);
      if (!view || v.version !== view.version) {
        const wasMine = myTurn();
        await load();
        if (!wasMine && myTurn()) announce("It is your turn.");
      } else {
        await loadChat();
      }
    } catch (e) {
      fail(e);
    }
    polls += 1;
    ctx.main.dataset.polls = String(polls);
  }

  const timer = setInterval(() => {
    if (!myTurn()) poll();
    else loadChat().catch(fail);
  }, POLL_MS);
  const onFocus = () => poll();
  const onKey = (ev) => {
    if (ev.key !== "r" && ev.key !== "R") return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = /** @type {HTMLElement} */ (ev.target);
    const typing = t instanceof HTMLInputElement ? !["radio", "checkbox", "button"].includes(t.type) : t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || Boolean(t && t.isContentEditable);
    if (typing) return;
    if (!sel) return;
    ev.preventDefault();
    rotate();
  };
  window.addEventListener("focus", onFocus);
  document.addEventListener("keydown", onKey);
  ctx.onLeave(() => {
    clearInterval(timer);
    window.removeEventListener("focus", onFocus);
    document.removeEventListener("keydown", onKey);
  });

  await load();
}
