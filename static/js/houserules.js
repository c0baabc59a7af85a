// House-rules pages: a Print button for the sheet. Without this file the browser's own
// print command does the same, so the button stays hidden until the script runs.
for (const button of document.querySelectorAll("[data-print]")) {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
}
