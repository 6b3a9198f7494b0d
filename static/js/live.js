// Parts of a page that refresh themselves while play goes on (a match, a team's
// link page, a table's waiting page) poll with the ETag of what they show: the
// server answers 304 when nothing changed, and the part is left as it is.
document.addEventListener("htmx:configRequest", (event) => {
  const tag = event.detail.elt.dataset.etag;
  if (tag) event.detail.headers["If-None-Match"] = tag;
});
document.addEventListener("htmx:beforeSwap", (event) => {
  if (event.detail.xhr.status === 304) event.detail.shouldSwap = false;
});
