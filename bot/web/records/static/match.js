// A match page of record: the arrow keys step the replay without reloading the page. The links
// work alone (no JavaScript needed); this only fetches the step a link names and swaps it in.
"use strict";
(function () {
  let busy = false;
  async function go(href, push) {
    if (busy) return;
    busy = true;
    try {
      const response = await fetch(href, { headers: { Accept: "text/html" } });
      if (!response.ok) { location.href = href; return; }
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const fresh = doc.getElementById("replay");
      const old = document.getElementById("replay");
      const deals = doc.querySelector("nav.deals");
      if (!fresh || !old) { location.href = href; return; }
      old.replaceWith(fresh);
      const oldDeals = document.querySelector("nav.deals");
      if (deals && oldDeals) oldDeals.replaceWith(deals);
      document.title = doc.title;
      if (push) history.pushState({ href }, "", href);
      const current = fresh.querySelector(".moves a[aria-current]");
      if (current) current.scrollIntoView({ block: "nearest" });
    } finally {
      busy = false;
    }
  }
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, textarea, select")) return;
    const rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (!rel) return;
    const link = document.querySelector(`#replay nav.step a[rel="${rel}"]`);
    if (!link) return;
    event.preventDefault();
    go(link.href, true);
  });
  window.addEventListener("popstate", () => go(location.href, false));
})();
