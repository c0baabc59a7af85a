// Class tables' projector (#23): the overview of every table is pushed over the page's
// socket (htmx's ws extension swaps it in); while that socket is not open, the page asks
// for the overview over HTTP once a second instead.

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
