// A match page of record: the arrow keys step the replay without reloading the page. The links
// work alone (no JavaScript needed); this only fetches the step a link names and swaps it in.
"use strict";
(function () {
  let busy = false;
  function showCurrent() {
    // the move list scrolls to the step shown (the list only, never the page)
    const list = document.querySelector("#replay .moves ol");
    const current = document.querySelector("#replay .moves a[aria-current]");
    if (list && current) list.scrollTop = current.offsetTop - list.clientHeight / 2;
  }
  const pending = []; // keys pressed while a step was loading: each taken from the step before it lands
  function follow(rel) {
    const link = document.querySelector(`#replay nav.step a[rel="${rel}"]`);
    if (link) go(link.href, true);
  }
  async function go(href, push) {
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
      showCurrent();
    } finally {
      busy = false;
    }
    if (pending.length) follow(pending.shift());
  }
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, textarea, select")) return;
    const rel = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" }[event.key];
    if (!rel) return;
    event.preventDefault();
    if (busy) { if (pending.length < 20) pending.push(rel); }
    else follow(rel);
  });
  window.addEventListener("popstate", () => go(location.href, false));
  showCurrent();
})();
