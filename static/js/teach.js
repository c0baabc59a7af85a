// Teacher mode (loaded beside play.js, which plays the table): the story panel, the
// projector's keys (Space pauses or resumes, → steps while paused), "explain this" on a
// paused table, and the set-up form's bot levels for the seats bots play.

const gameBox = () => document.getElementById("game");
const shown = () => document.querySelector("#game > .game__state");

// Each answer brings the story lines since the table it was asked from; the panel keeps
// them all, in order, each once.
function addLines() {
  const incoming = shown()?.querySelector("[data-narration]");
  const panel = document.getElementById("narration");
  if (!incoming || !panel) return;
  const atEnd = panel.scrollTop + panel.clientHeight >= panel.scrollHeight - 8;
  for (const line of incoming.children) {
    const id = CSS.escape(line.dataset.line);
    if (!panel.querySelector(`[data-line="${id}"]`)) panel.append(line.cloneNode(true));
  }
  if (atEnd) panel.scrollTop = panel.scrollHeight;
}

// A new board, answered over HTTP or pushed over the lesson's socket (live.lessons).
document.addEventListener("htmx:afterSwap", (event) => {
  if (event.detail.target?.id === "game") boardShown();
});
document.addEventListener("htmx:wsAfterMessage", boardShown);

function boardShown() {
  addLines();
  // The game went on: an explanation of the paused table is out of date.
  if (!shown()?.hasAttribute("data-paused")) {
    const explain = document.getElementById("explain");
    if (explain) explain.replaceChildren();
    gameBox()
      ?.querySelectorAll(".is-explained")
      .forEach((el) => el.classList.remove("is-explained"));
  }
}

// A teacher's question command (ask, reveal, close) whose answer comes after the lesson's
// socket pushed its result: the form or button that asked was replaced by that frame, which
// shows the lesson as new as the answer does, so the answer is not swapped in (its tally
// would look for its place from the detached button).
document.addEventListener("htmx:beforeSwap", (event) => {
  const asker = event.detail.requestConfig?.elt;
  if (event.detail.target?.id === "game" && asker && !asker.isConnected
      && gameBox()?.hasAttribute("data-live")) {
    event.detail.shouldSwap = false;
  }
});

// An explanation that is refused (the game is running again) still says why.
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.target?.id !== "explain") return;
  const status = event.detail.xhr.status;
  if (status === 400 || status === 409) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// The projector's keys: the clock's own buttons, pressed for the teacher.
document.addEventListener("keydown", (event) => {
  if (!gameBox()?.dataset.clockUrl || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.("input, select, textarea")) return;
  let button = null;
  if (event.key === " ") {
    button = document.getElementById("clock-pause") || document.getElementById("clock-resume");
  } else if (event.key === "ArrowRight") {
    button = document.getElementById("clock-step");
  }
  if (!button) return;
  event.preventDefault();
  button.click();
});

// "Explain this": a card or pile of the paused table, clicked, is put to the engine.
document.addEventListener("click", (event) => {
  const el = event.target.closest?.("[data-explain]");
  const box = gameBox();
  const panel = document.getElementById("explain");
  if (!el || !box?.contains(el) || !panel) return;
  box.querySelectorAll(".is-explained").forEach((other) => other.classList.remove("is-explained"));
  el.classList.add("is-explained");
  const url = `${box.dataset.explainUrl}?ref=${encodeURIComponent(el.dataset.explain)}`;
  window.htmx.ajax("GET", url, { target: "#explain", swap: "innerHTML" });
});

// The set-up form: a level for each seat a bot plays (the player count and who plays
// decide which), as the server reads them.
function updateSeats(form) {
  const players = Number(form.querySelector("[data-players]")?.value || 2);
  const mode = form.querySelector('input[name="mode"]:checked')?.value || "watch";
  const people = { watch: 0, teacher: 1, hotseat: 2 }[mode] ?? 0;
  form.querySelectorAll("[data-bot-seat]").forEach((field) => {
    const seat = Number(field.dataset.botSeat);
    field.hidden = seat <= people || seat > players;
  });
}

document.addEventListener("change", (event) => {
  const form = event.target.closest?.("[data-teach-setup]");
  if (form) updateSeats(form);
});

document.querySelectorAll("[data-teach-setup]").forEach(updateSeats);
