// A printed page shows every sheet: open the collapsed ones before printing.
window.addEventListener("beforeprint", () => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
});
