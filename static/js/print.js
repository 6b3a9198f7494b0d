// A printed page shows every sheet: open the collapsed ones before printing.
window.addEventListener("beforeprint", () => {
  document.querySelectorAll("details").forEach((d) => { d.open = true; });
});

// The Print buttons (no inline handlers: the content security policy forbids them).
document.addEventListener("click", (event) => {
  if (event.target.closest("button.print")) window.print();
});
