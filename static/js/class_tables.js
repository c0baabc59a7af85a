// Class tables' projector (#23): the page's socket pushes the whole overview after a
// lesson's change and, after a move, only the changed tables' boards (and the leaderboard
// once a table finished), each an out-of-band swap htmx's ws extension makes; while that
// socket is not open, the page asks for the whole overview over HTTP once a second instead.

const box = document.getElementById("tables-overview");
let live = false;

document.addEventListener("htmx:wsOpen", () => {
  live = true;
  box?.setAttribute("data-live", "");
});
document.addEventListener("htmx:wsClose", () => {
  live = false;
  box?.removeAttribute("data-live");
});

setInterval(() => {
  if (live || !box || document.hidden || !window.htmx) return;
  window.htmx.ajax("GET", box.dataset.url, { target: box, swap: "innerHTML" });
}, 1000);
