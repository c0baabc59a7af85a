// The playable demo (loaded only on its pages): taps, drags and keys become actions that the
// server's rules engine judges. The server renders what each card and pile does
// (data-pick, data-drop, data-send: fragments of an action, see site/play/table.py); this
// file only combines them, posts them in order, and keeps the choice across board updates.
// The board itself comes from the server: it re-asks when the next bot move is due
// (hx-trigger="load delay:…" in each response).
// A page may act for two seats at one keyboard (teacher mode's hot seat): the items then say
// whose they are (data-seat), shared piles list each seat's key (data-keys="q:0 o:1"), and
// each seat chooses its cards on its own. Without data-seat the page acts for one seat.

const gameBox = () => document.getElementById("game");
// The part of #game each answer replaces: the table as of one version of the game.
const shown = () => document.querySelector("#game > .game__state");
const read = (el, name) => (el.dataset[name] ? JSON.parse(el.dataset[name]) : null);

// Per seat ("" for the page's one seat): the chosen cards [{id, pick}] in the order chosen,
// and the modifiers switched on, e.g. {whole: true} while "Whole stack" is on.
const picks = new Map();
const toggleSets = new Map();
let lastSeat = "";
let chain = Promise.resolve();
// The game's socket (htmx's ws extension) while it is open: see "Live push" below.
let socket = null;
let suppressClick = false;

const seatOf = (el) => el.dataset.seat ?? "";
const pickedOf = (seat) => picks.get(seat) || [];
const togglesOf = (seat) => {
  if (!toggleSets.has(seat)) toggleSets.set(seat, {});
  return toggleSets.get(seat);
};

function mark() {
  const box = gameBox();
  if (!box) return;
  // A chosen card stays chosen over a board update only if the same card is still there.
  const chosen = new Set();
  picks.forEach((list, seat) => {
    const kept = list.filter(({ id, pick }) => {
      const el = document.getElementById(id);
      return el && box.contains(el) && el.dataset.pick === pick;
    });
    picks.set(seat, kept);
    kept.forEach((p) => chosen.add(p.id));
  });
  box.querySelectorAll("[data-pick]").forEach((el) => {
    el.classList.toggle("is-picked", chosen.has(el.id));
    if (el.hasAttribute("aria-pressed")) el.setAttribute("aria-pressed", String(chosen.has(el.id)));
  });
  box.querySelectorAll("[data-toggle]").forEach((el) => {
    const toggles = togglesOf(seatOf(el));
    const on = Object.keys(read(el, "toggle")).every((k) => toggles[k]);
    el.setAttribute("aria-pressed", String(on));
  });
}

// A pile's top that changed a moment before the tap is not the top the player aimed at: no
// one reacts that fast. The move then names the top the player saw (the drop's "onto"), and
// the engine answers that the card came too late, not that it broke a rule.
const REACTION_MS = 600;
const changedTops = new Map(); // drop element id -> {onto: the top before, at: when it changed}

function topsShown() {
  const tops = new Map();
  gameBox()?.querySelectorAll("[data-drop]").forEach((el) => {
    const onto = read(el, "drop")?.onto;
    if (el.id && onto !== undefined) tops.set(el.id, onto);
  });
  return tops;
}

let topsBefore = new Map();

// The pile this page last played onto, and when: its top changing then is the page's own
// card landing, not a race.
let ownDrop = { id: "", at: 0 };

function noteChangedTops() {
  const now = Date.now();
  topsShown().forEach((onto, id) => {
    const own = ownDrop.id === id && now - ownDrop.at < 2000;
    if (!own && topsBefore.has(id) && topsBefore.get(id) !== onto) {
      changedTops.set(id, { onto: topsBefore.get(id), at: now });
    }
  });
}

function aimed(el) {
  const drop = read(el, "drop");
  const changed = changedTops.get(el.id);
  if (drop && "onto" in drop && changed && Date.now() - changed.at < REACTION_MS) {
    return { ...drop, onto: changed.onto };
  }
  return drop;
}

function clear(seat) {
  if (seat === undefined) picks.clear();
  else picks.delete(seat);
  mark();
}

function compose(chosen, drop, seat) {
  const action = Object.assign({}, ...chosen.map((p) => JSON.parse(p.pick)), drop || {});
  if (chosen.length > 1) {
    action.cards = chosen.map((p) => JSON.parse(p.pick).card);
    delete action.card;
  }
  if (action.type === "play") {
    // A modifier such as "whole stack" counts for one play.
    const toggles = togglesOf(seat);
    Object.assign(action, toggles);
    Object.keys(toggles).forEach((k) => delete toggles[k]);
  }
  return action;
}

function post(url, values, retry = false) {
  // One request after the other, each sent with the table version shown when it leaves;
  // over the game's socket while it is open (the answer comes as a pushed frame).
  chain = chain
    .then(() => {
      const box = gameBox();
      const state = shown();
      if (!box || !state) return undefined;
      if (socket && (url === box.dataset.moveUrl || url === box.dataset.clockUrl)) {
        socket.send(JSON.stringify({ ...values, version: Number(state.dataset.version) }));
        return undefined;
      }
      const sent = { ...values, version: state.dataset.version, since: state.dataset.seq };
      const send = () =>
        window.htmx.ajax("POST", url, {
          source: box,
          target: "#game",
          swap: "innerHTML",
          values: sent,
        });
      // A move whose answer never came (a server worker restarted, the network dropped) is
      // sent once more with the same version: the server answers a repeat as the same move.
      // Not a clock command: a second step would step twice.
      return retry ? send().catch(send) : send();
    })
    .catch(() => undefined);
}

function act(action, seat) {
  note = null; // a new move: the last rejection is old news
  const box = gameBox();
  if (!box) return;
  if (box.dataset.tryUrl) {
    // The examples' sandbox keeps its position in the URL: the engine judges the move there.
    const url = `${box.dataset.tryUrl}&act=${encodeURIComponent(JSON.stringify(action))}`;
    window.htmx.ajax("GET", url, { source: box, target: "#sandbox", swap: "innerHTML" });
    return;
  }
  // A pupil's answer to a class question goes where the shown question says; a move to the
  // game.
  const url = shown()?.dataset.answerUrl || box.dataset.moveUrl;
  post(url, seat ? { action: JSON.stringify(action), seat } : { action: JSON.stringify(action) },
    true);
}

// A shared pile tapped (not keyed) acts for the seat that has a card chosen, else for the
// seat that acted last.
function sharedSeat(el) {
  if (el.dataset.drop) {
    const choosing = [...picks].filter(([, list]) => list.length).map(([seat]) => seat);
    if (choosing.length === 1) return choosing[0];
  }
  return lastSeat;
}

function tap(el, keySeat) {
  const box = gameBox();
  if (!box || !box.hasAttribute("data-holds")) return;
  if (el.dataset.clock) {
    const values = { command: el.dataset.clock };
    if (el.dataset.value) values.value = el.dataset.value;
    post(box.dataset.clockUrl, values);
    return;
  }
  const seat = el.dataset.seat ?? keySeat ?? sharedSeat(el);
  lastSeat = seat;
  if (el.dataset.toggle) {
    const toggles = togglesOf(seat);
    const keys = Object.keys(read(el, "toggle"));
    const on = !keys.every((k) => toggles[k]);
    keys.forEach((k) => (on ? (toggles[k] = true) : delete toggles[k]));
    mark();
    return;
  }
  const drop = aimed(el);
  const send = read(el, "send");
  const multi = Number(el.dataset.multi || 0);
  let mine = pickedOf(seat);
  if (mine.some((p) => p.id === el.id)) {
    picks.set(seat, multi ? mine.filter((p) => p.id !== el.id) : []);
    mark();
    return;
  }
  if (mine.length && drop) {
    ownDrop = { id: el.id, at: Date.now() };
    const action = compose(mine, drop, seat);
    clear(seat);
    act(action, seat);
    return;
  }
  if (el.dataset.pick && multi) {
    const type = read(el, "pick").type;
    mine = mine.filter((p) => JSON.parse(p.pick).type === type);
    mine.push({ id: el.id, pick: el.dataset.pick });
    if (el.hasAttribute("data-auto") && mine.length >= multi) {
      const action = compose(mine, null, seat);
      clear(seat);
      act(action, seat);
      return;
    }
    picks.set(seat, mine.slice(-multi));
    mark();
    return;
  }
  if (send) {
    clear(seat);
    act(send, seat);
    return;
  }
  if (el.dataset.pick) {
    picks.set(seat, [{ id: el.id, pick: el.dataset.pick }]);
    mark();
    return;
  }
  clear(seat);
}

// The element a key works (data-key, or one of a shared pile's data-keys) and the seat it
// acts for.
function keyTarget(box, key) {
  const el = box.querySelector(`[data-key="${CSS.escape(key)}"]`);
  if (el) return [el, el.dataset.keySeat];
  for (const shared of box.querySelectorAll("[data-keys]")) {
    for (const token of shared.dataset.keys.split(" ")) {
      const at = token.lastIndexOf(":");
      if (token.slice(0, at) === key) return [shared, token.slice(at + 1)];
    }
  }
  return [null, undefined];
}

const TAPPABLE = "[data-pick], [data-drop], [data-send], [data-toggle], [data-clock]";

document.addEventListener("click", (event) => {
  const el = event.target.closest?.(TAPPABLE);
  if (!el || !gameBox()?.contains(el)) return;
  if (suppressClick) {
    suppressClick = false;
    return;
  }
  tap(el);
});

// Keys: each card, pile and command shows its key (data-key holds KeyboardEvent.key).
document.addEventListener("keydown", (event) => {
  const box = gameBox();
  if (!box || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, select, textarea, summary, a")) return;
  // On the examples' sandbox the keys work once the table has the focus (the page scrolls).
  if (box.dataset.tryUrl && !box.contains(event.target)) return;
  if (event.key === "Escape") {
    clear();
    return;
  }
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const [el, seat] = keyTarget(box, key);
  if (!el) return;
  event.preventDefault();
  tap(el, seat);
});

// Space is the call: it must not also press the button that has the focus.
document.addEventListener("keyup", (event) => {
  if (event.key === " " && gameBox()?.contains(event.target)) event.preventDefault();
});

// Dragging a card onto a pile: pointer events, so a finger works as well as a mouse.
let drag = null;

document.addEventListener("pointerdown", (event) => {
  const el = event.target.closest?.("[data-pick]");
  if (!el || event.button !== 0 || !gameBox()?.contains(el)) return;
  drag = {
    el,
    id: el.id,
    pick: el.dataset.pick,
    seat: seatOf(el),
    x: event.clientX,
    y: event.clientY,
    ghost: null,
  };
});

document.addEventListener("pointermove", (event) => {
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.ghost) {
    if (Math.hypot(dx, dy) < 8) return;
    drag.ghost = drag.el.cloneNode(true);
    drag.ghost.removeAttribute("id");
    drag.ghost.classList.add("drag-ghost");
    drag.ghost.setAttribute("aria-hidden", "true");
    const box = drag.el.getBoundingClientRect();
    drag.ghost.style.left = `${box.left}px`;
    drag.ghost.style.top = `${box.top}px`;
    drag.ghost.style.width = `${box.width}px`;
    document.body.append(drag.ghost);
  }
  drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
});

function endDrag(event, dropped) {
  if (!drag) return;
  const { ghost, id, pick, seat } = drag;
  drag = null;
  if (!ghost) return;
  ghost.remove();
  suppressClick = true;
  setTimeout(() => (suppressClick = false), 0);
  if (!dropped) return;
  const target = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-drop]");
  if (target && target.id !== id && gameBox()?.contains(target)) {
    clear(seat);
    lastSeat = seat;
    ownDrop = { id: target.id, at: Date.now() };
    act(compose([{ id, pick }], aimed(target), seat), seat);
  }
}

document.addEventListener("pointerup", (event) => endDrag(event, true));
document.addEventListener("pointercancel", (event) => endDrag(event, false));

// Answers may cross: a board older than the one shown is never swapped in. Refusals (4xx)
// carry the unchanged board and the reason, and are shown like any answer.
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.target?.id !== "game") return;
  topsBefore = topsShown();
  const status = event.detail.xhr.status;
  // A 503 that carries a board (the game cannot be saved right now) says so in its place;
  // a 503 without one (a busy game) leaves the board and asks again.
  const board = event.detail.xhr.getResponseHeader("X-Game-Version") !== null;
  if (status === 400 || status === 403 || status === 409 || (status === 503 && board)) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
  const incoming = Number(event.detail.xhr.getResponseHeader("X-Game-Version"));
  const current = Number(shown()?.dataset.version);
  if (event.detail.shouldSwap && incoming < current) event.detail.shouldSwap = false;
  const digest = event.detail.xhr.getResponseHeader("X-Game-Digest");
  const box = gameBox();
  if (event.detail.shouldSwap && digest && box && digest === box.dataset.digest
      && event.detail.requestConfig?.verb === "get") {
    keepBoard(event);
  } else if (event.detail.shouldSwap && box) {
    box.dataset.digest = digest || "";
  }
});

// A board request whose answer would show exactly what is shown (the server's digest of
// the answer, without the next request's delay, is the same: no bot moved, no question was
// asked) leaves the board as it is, with its focus and choice, and takes only the next
// request from the answer, so a phone does no layout work each second while nothing happens.
function keepBoard(event) {
  const state = shown();
  const poll = /<div class="poll"[^>]*><\/div>/.exec(event.detail.serverResponse)?.[0];
  if (!state) return;
  event.detail.shouldSwap = false;
  state.querySelector(":scope > .poll")?.remove();
  if (!poll) return;
  const template = document.createElement("template");
  template.innerHTML = poll;
  const next = template.content.firstElementChild;
  state.append(next);
  window.htmx.process(next);
}

// A board request that failed (the server busy, the network gone) would leave the page
// without its next request: ask again a second later.
function askAgain(delay = 1000) {
  setTimeout(() => {
    const box = gameBox();
    const state = shown();
    if (box?.dataset.gameUrl && state) {
      window.htmx.ajax("GET", `${box.dataset.gameUrl}?since=${state.dataset.seq}`, {
        source: box,
        target: "#game",
        swap: "innerHTML",
      });
    }
  }, delay);
}

function askAgainSoon(event) {
  if (event.detail.target?.id !== "game" || event.detail.requestConfig?.verb !== "get") return;
  const status = event.detail.xhr?.status || 0;
  if (status && status < 500) return; // a game that is gone stays gone
  askAgain();
}
document.addEventListener("htmx:responseError", askAgainSoon);
document.addEventListener("htmx:sendError", askAgainSoon);

// A rejection's reason stays in view for a few seconds, while bots' moves replace the board.
const NOTE_MS = 4000;
let note = null;

function keepNote() {
  const bar = shown()?.querySelector(".game__bar");
  if (!bar) return;
  const message = bar.querySelector(".game__message");
  if (message) {
    note = { text: message.textContent, until: Date.now() + NOTE_MS };
  } else if (note && Date.now() < note.until) {
    const again = document.createElement("p");
    again.className = "game__message";
    again.id = "game-message";
    again.textContent = note.text;
    // Beside the hint, never over it: the hint says what to do next (a Spit deal's end
    // gives the players a few seconds to choose a pile).
    const hint = bar.querySelector(".game__hint");
    if (hint) hint.after(again);
    else bar.prepend(again);
  }
}

// The start signal: while the game waits for it, the server draws the countdown (.signal;
// data-signal-in: real ms until "go", none while the clock is paused). The page counts it
// down, shows and reads out each second and the go word, then takes it away. The engine's
// driver refuses any move before the signal, whatever this shows.
let signalTimer = null;
let signalShown = null;

function say(text, lang = "") {
  const region = document.getElementById("announce");
  if (!region) return;
  const line = document.createElement("p");
  line.textContent = text;
  if (lang) line.lang = lang;
  region.append(line);
}

// "Go!", and on a two-language table (data-go2) the second language's beneath it.
function showGo(el, count) {
  count.textContent = el.dataset.go;
  if (!el.dataset.go2) return;
  const alt = document.createElement("span");
  alt.className = "signal__go2";
  alt.lang = el.dataset.lang2 || "";
  alt.textContent = el.dataset.go2;
  count.append(alt);
}

function sayGo(el) {
  say(el.dataset.go);
  if (el.dataset.go2) say(el.dataset.go2, el.dataset.lang2 || "");
}

function countDown() {
  const el = shown()?.querySelector("[data-signal]") || null;
  if (el === signalShown) return; // the same board (a poll kept it): already counting
  clearInterval(signalTimer);
  signalTimer = null;
  signalShown = el;
  if (!el) return;
  const count = el.querySelector(".signal__count");
  const ready = el.querySelector(".signal__ready")?.textContent;
  let last = el.classList.contains("signal--go") ? el.dataset.go : count.textContent;
  if (last === el.dataset.go) sayGo(el);
  else say(`${ready} ${last}`);
  if (!el.dataset.signalIn) return;
  const go = Date.now() + Number(el.dataset.signalIn);
  signalTimer = setInterval(() => {
    const left = go - Date.now();
    const text = left > 0 ? String(Math.ceil(left / 1000)) : el.dataset.go;
    if (text !== last) {
      last = text;
      el.classList.toggle("signal--go", left <= 0);
      if (left > 0) {
        count.textContent = text;
        say(text);
      } else {
        showGo(el, count);
        sayGo(el);
      }
    }
    if (left <= -900) {
      clearInterval(signalTimer);
      signalTimer = null;
      el.hidden = true;
    }
  }, 100);
}

// The live region stays put; each answer brings the lines it should read out. A table's
// presence news (who left, came back, was replaced: data-news, the version that told it)
// is read out once, however many answers show that version.
let newsRead = 0;

function boardShown() {
  noteChangedTops();
  mark();
  keepNote();
  startCountdowns();
  announce();
  countDown();
}

function announce() {
  const lines = shown()?.querySelector("[data-announce]")?.cloneNode(true);
  const region = document.getElementById("announce");
  if (!lines || !region) return;
  lines.querySelectorAll("[data-news]").forEach((line) => {
    const version = Number(line.dataset.news);
    if (version <= newsRead) line.remove();
    else newsRead = version;
  });
  if (lines.textContent.trim()) region.replaceChildren(...lines.childNodes);
}

// The time left before a bot takes a missing person's seat, counted down on the page from
// what the server said when it sent the board (no clock of the page's is compared).
let countdown = null;

function startCountdowns() {
  const spans = [...document.querySelectorAll("#game [data-countdown-ms]")];
  const from = Date.now();
  if (countdown) clearInterval(countdown);
  countdown = null;
  if (!spans.length) return;
  countdown = setInterval(() => {
    spans.forEach((span) => {
      const left = Number(span.dataset.countdownMs) - (Date.now() - from);
      span.textContent = String(Math.max(0, Math.ceil(left / 1000)));
    });
  }, 1000);
}
startCountdowns();

// "Take my seat back": a pushed board carries no form token, so the page posts it through
// htmx (whose header carries the page's); the answer reloads the page as the player's.
document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-take-back]");
  const box = gameBox();
  if (!button || !box?.contains(button)) return;
  event.preventDefault();
  window.htmx.ajax("POST", box.dataset.seatUrl, {
    source: box,
    target: "#game",
    swap: "innerHTML",
    values: { seat: button.dataset.takeBack, since: shown()?.dataset.seq || "" },
  });
});

document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.id === "sandbox") mark();
  if (event.detail.target?.id === "game") boardShown();
});

// Live push (htmx's ws extension on #game, ws-connect): while the game's socket is open,
// every change comes to the page as a frame and moves go over the socket; the page's own
// board requests stop. When the socket closes, the page asks over HTTP again and keeps
// asking (each answer names its next request) until the extension has reconnected; on
// (re)connecting it says which story line it saw last, so none is missed or told twice.
document.addEventListener("htmx:wsOpen", (event) => {
  socket = event.detail.socketWrapper;
  event.target.dataset.live = "";
  socket.send(JSON.stringify({ since: Number(shown()?.dataset.seq || 0) }));
});

document.addEventListener("htmx:wsClose", (event) => {
  delete event.target.dataset.live;
  if (!socket) return;
  socket = null;
  askAgain();
});

document.addEventListener("htmx:beforeRequest", (event) => {
  if (socket && event.detail.elt?.classList?.contains("poll")) event.preventDefault();
});

// A frame older than the board shown, or no newer, is dropped; a frame told to this page
// alone (a refusal's reason) is shown. A lesson's frame (teacher mode, data-lesson) of the
// version shown is taken: a class question changes the page, not the game's version.
let focused = null;

// A class table's phone (teacher mode): a class question asked, revealed or closed changes
// the page, not the game's version; the question's mark (data-question) tells.
function questionMoved(message) {
  const incoming = / data-question="([^"]*)"/.exec(message)?.[1] || "";
  return incoming !== (shown()?.querySelector("[data-question]")?.dataset.question || "");
}

// At a table with presence on the server pings the page (its own clock's stamp, sent back
// as it came: the round trip is the delay every player sees) and sends the seats' delays
// alone when they change: no board, nothing to read out.
let delaysOnly = false;

document.addEventListener("htmx:wsBeforeMessage", (event) => {
  const message = event.detail.message;
  if (message.startsWith('{"ping"')) {
    event.preventDefault();
    try {
      event.detail.socketWrapper.send(JSON.stringify({ pong: JSON.parse(message).ping }));
    } catch {
      // not a ping after all: nothing to answer
    }
    return;
  }
  if (message.startsWith('{"told"')) {
    event.preventDefault();
    let data;
    try {
      data = JSON.parse(message);
    } catch {
      return;
    }
    toldOnly(data);
    return;
  }
  if (message.startsWith('<p id="delays"')) {
    delaysOnly = true;
    return;
  }
  const head = /^<div id="game"[^>]*>/.exec(message)?.[0] || "";
  const version = Number(/ data-version="(\d+)"/.exec(head)?.[1]);
  const current = Number(shown()?.dataset.version);
  const again = head.includes(" data-lesson") || questionMoved(message);
  const old = again ? version < current : version <= current;
  if (!head.includes(" data-told") && old) {
    event.preventDefault();
    return;
  }
  topsBefore = topsShown();
  // The focus stays on its card or pile when the board is replaced, as with htmx's swaps.
  const active = document.activeElement;
  focused = active && active.id && gameBox()?.contains(active) ? active.id : null;
});

// The board shown is now of `version` if it was the one just before it (true), else unchanged.
function stepTo(state, version, seq) {
  if (Number(state.dataset.version) !== version - 1) return false;
  state.dataset.version = String(version);
  state.dataset.seq = String(seq);
  return true;
}

// A move the engine refused and logged, whose change shows nothing new (no card moved, no
// bot played): the server sends the reason alone, {"told": version, "seq", "message",
// "lang2", "message2"}, for the board this page shows, which stays (its choice and focus
// too) and is now of that version; if a board before it is still on its way, the page keeps
// its version and takes that board when it comes (the reason stays a few seconds).
function toldOnly(told) {
  const state = shown();
  const bar = state?.querySelector(".game__bar");
  if (!state || !bar) return;
  stepTo(state, told.told, told.seq);
  bar.querySelectorAll(".game__message").forEach((el) => el.remove());
  const lines = [[told.message, ""]];
  if (told.message2) lines.push([told.message2, told.lang2]);
  // where the board puts it: after the hint and its second language
  let after = bar.querySelector(".game__hint");
  if (after?.nextElementSibling?.classList.contains("game__alt")) after = after.nextElementSibling;
  lines.forEach(([text, lang], n) => {
    const line = document.createElement("p");
    line.className = "game__message";
    if (n === 0) line.id = "game-message";
    if (lang) line.lang = lang;
    line.textContent = text;
    if (after) after.after(line);
    else bar.prepend(line);
    after = line;
  });
  note = null;
  keepNote();
  mark();
  document.getElementById("announce")?.replaceChildren();
  lines.forEach(([text, lang]) => say(text, lang));
}

document.addEventListener("htmx:wsAfterMessage", () => {
  if (delaysOnly) {
    delaysOnly = false;
    return;
  }
  if (focused) document.getElementById(focused)?.focus({ preventScroll: true });
  focused = null;
  boardShown();
  // A pushed board carries no per-browser form token: the finished game's "Play again"
  // form comes over HTTP.
  if (shown()?.classList.contains("game__state--over")) askAgain(0);
});

// The new-game form: one level choice per opponent the chosen player count has.
document.addEventListener("change", (event) => {
  const select = event.target.closest?.("[data-players]");
  if (!select) return;
  const players = Number(select.value);
  select.form.querySelectorAll("[data-opponent]").forEach((field) => {
    field.hidden = Number(field.dataset.opponent) > players;
  });
});

countDown();
