// Progressive enhancement only: every page works without this file.
// Step-through examples: arrow keys and Home/End move between steps by clicking the
// viewer's own links, so htmx and plain navigation follow the same path.
const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

document.addEventListener("keydown", (event) => {
  const viewer = event.target.closest?.("[data-example-viewer]");
  if (!viewer || event.altKey || event.ctrlKey || event.metaKey) return;
  const which = KEYS[event.key];
  if (!which) return;
  const link = viewer.querySelector(`[data-step-link="${which}"]`);
  if (link && !link.hasAttribute("aria-disabled")) {
    event.preventDefault();
    // htmx wires up swapped-in links only when the swap settles (20 ms later); a key pressed
    // sooner would follow the plain link, reload the page and lose the viewer's focus.
    window.htmx?.process(link);
    link.click();
  }
});

// Play: advance one step at a time at the chosen speed until the last step. The timer
// looks the viewer up afresh on every tick because htmx replaces its contents.
const timers = new Map();

function stopPlaying(id) {
  clearInterval(timers.get(id));
  timers.delete(id);
  const button = document.getElementById(id)?.querySelector("[data-play]");
  if (button) button.setAttribute("aria-pressed", "false");
}

document.addEventListener("click", (event) => {
  const button = event.target.closest?.("[data-play]");
  if (!button) return;
  const viewer = button.closest("[data-example-viewer]");
  if (timers.has(viewer.id)) {
    stopPlaying(viewer.id);
    return;
  }
  const speed = Number(viewer.querySelector("[data-speed]")?.value || 1500);
  button.setAttribute("aria-pressed", "true");
  timers.set(
    viewer.id,
    setInterval(() => {
      const next = document.getElementById(viewer.id)?.querySelector('[data-step-link="next"]');
      if (!next || next.hasAttribute("aria-disabled")) stopPlaying(viewer.id);
      else {
        window.htmx?.process(next);
        next.click();
      }
    }, speed),
  );
});

document.addEventListener("htmx:afterSwap", (event) => {
  const viewer = event.target.closest?.("[data-example-viewer]");
  if (viewer && timers.has(viewer.id)) {
    viewer.querySelector("[data-play]")?.setAttribute("aria-pressed", "true");
  }
});

// Viewers beside rules sections after the first few arrive as a title and a link to their
// own page. Each is fetched when it comes within a screen's height of the visible part, so it
// is drawn before it scrolls into view and nothing on screen moves.
function loadDeferredViewer(viewer) {
  const url = viewer.dataset.deferredViewer;
  viewer.removeAttribute("data-deferred-viewer");
  window.htmx
    // Its own source: htmx drops a request while another from the same source is running.
    .ajax("GET", url, { source: viewer, target: viewer, swap: "innerHTML" })
    .then(() => {
      viewer.classList.remove("example-viewer--deferred");
      viewer.tabIndex = 0;
    });
}

const deferredViewers = document.querySelectorAll("[data-deferred-viewer]");
if (deferredViewers.length && window.htmx && "IntersectionObserver" in window) {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          observer.unobserve(entry.target);
          loadDeferredViewer(entry.target);
        }
      }
    },
    { rootMargin: "100% 0px" },
  );
  deferredViewers.forEach((viewer) => observer.observe(viewer));
}
