// A table of friends (#22): the new table's form shows one seat choice per player; the
// table's page goes to the game when a pushed frame says a new one has started.

document.addEventListener("change", (event) => {
  const select = event.target.closest?.("[data-players]");
  if (!select) return;
  const players = Number(select.value);
  select.form.querySelectorAll("[data-opponent]").forEach((field) => {
    field.hidden = Number(field.dataset.opponent) > players;
  });
});

// The round the page was loaded with: a player coming back to the table during a game is
// not sent away again; a round that starts while the page is open is followed.
const shownRound = document.querySelector("#lobby [data-go]")?.dataset.round ?? "";

function follow() {
  const go = document.querySelector("#lobby [data-go]");
  if (go && go.dataset.round !== shownRound) window.location.assign(go.href);
}

document.addEventListener("htmx:wsAfterMessage", follow);
document.addEventListener("htmx:afterSwap", follow);
