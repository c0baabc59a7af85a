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
    link.click();
  }
});
