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
// The ready button's answer and the socket's frame may both show the new round: the page
// leaves once (a second assign would abort the first navigation).
let leaving = false;

function follow() {
  const go = document.querySelector("#lobby [data-go]");
  if (leaving || !go || go.dataset.round === shownRound) return;
  leaving = true;
  window.location.assign(go.href);
}

document.addEventListener("htmx:wsAfterMessage", follow);
document.addEventListener("htmx:afterSwap", follow);
