/**
 * The public pages' own inline scripts, kept here as text so the server can allow exactly these
 * (by hash, in each page's Content-Security-Policy) and nothing else that appears in a page.
 * Plain browser JavaScript, no framework: a component renders one with
 * `<script is:inline set:html={SCRIPT} />`.
 */

/**
 * Menu toggle, scroll shadow, signed-in links, and what the header row can hold at this width
 * (site.css names the states): measured before the first paint and again on resize, once the font
 * and logo have loaded and when the signed-in links appear. The signed-in check only asks the server when the
 * non-secret `signed_in` hint cookie exists, so anonymous views cost nothing.
 */
export const HEADER_SCRIPT = `
(function () {
  var h = document.getElementById('site-header'), t = document.getElementById('menu-toggle'), m = document.getElementById('mobile-menu');
  var limit = Number(h.dataset.threshold) || 10;
  function onScroll() { h.classList.toggle('shadow-md', window.scrollY > limit); }
  window.addEventListener('scroll', onScroll, { passive: true }); onScroll();
  function setMenu(open) { t.setAttribute('aria-expanded', String(open)); m.hidden = !open; }
  t.addEventListener('click', function () { setMenu(m.hidden); });
  // What fits in the row, tried from the most shown: the navigation beside the name on one line,
  // then on two lines, then the menu button beside the same, then the logo alone.
  var row = h.firstElementChild, name = document.getElementById('site-name');
  function fits() {
    if (row.scrollWidth > row.clientWidth + 1) return false;
    if (!name || h.dataset.name !== 'wrap') return true;
    var line = parseFloat(getComputedStyle(name).lineHeight) || 18;
    return name.scrollWidth <= name.clientWidth + 1 && name.offsetHeight <= 2 * line + 1;
  }
  function fit() {
    var tries = [['full', 'one'], ['full', 'wrap'], ['menu', 'one'], ['menu', 'wrap'], ['menu', 'hidden']];
    for (var i = 0; i < tries.length; i++) {
      if (!name && tries[i][1] !== 'one') continue;
      h.dataset.fit = tries[i][0]; h.dataset.name = tries[i][1];
      if (fits()) break;
    }
    if (h.dataset.fit === 'full' && !m.hidden) setMenu(false);
  }
  fit();
  var queued = false;
  function refit() { if (!queued) { queued = true; requestAnimationFrame(function () { queued = false; fit(); }); } }
  window.addEventListener('resize', refit);
  if (document.fonts) document.fonts.ready.then(refit);
  h.querySelectorAll('img').forEach(function (img) { if (!img.complete) img.addEventListener('load', refit); });
  m.addEventListener('click', function (e) { if (e.target.closest('a')) setMenu(false); });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !m.hidden) { setMenu(false); t.focus(); } });
  function show(signedIn) {
    document.querySelectorAll('[data-auth]').forEach(function (el) { el.hidden = (el.dataset.auth === 'in') !== signedIn; });
    fit();
  }
  if (/(?:^|; )signed_in=1/.test(document.cookie)) {
    fetch('/api/user', { credentials: 'same-origin' }).then(function (r) { show(r.ok); return r.text(); }).catch(function () {});
  }
  document.querySelectorAll('[data-logout]').forEach(function (b) {
    b.addEventListener('click', function () {
      fetch('/api/logout', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: '{}' })
        .finally(function () { show(false); window.location.href = '/'; });
    });
  });
})();
`;

/** A document button whose document is not uploaded yet says so instead of downloading. */
export const MISSING_DOCUMENT_SCRIPT = `
document.querySelectorAll('button[data-missing]').forEach(function (b) {
  if (b.dataset.bound) return;
  b.dataset.bound = '1';
  b.addEventListener('click', function () { window.alert(b.dataset.missing); });
});
`;

/**
 * The insights search box asks the server (GET /api/insights/search) as one types, a moment after
 * the last key, and shows the articles it answers; a status line says how many matched (a live
 * region, so a screen reader hears it). Results are built as text nodes: nothing of an article is
 * parsed as HTML. When the server cannot be reached, the box filters the cards on the page.
 */
export const INSIGHT_SEARCH_SCRIPT = `
(function () {
  var form = document.getElementById('insight-search-form'), input = document.getElementById('insight-search');
  var status = document.getElementById('search-status'), box = document.getElementById('search-results'), list = document.getElementById('search-list');
  var empty = document.getElementById('search-empty'), cards = document.querySelectorAll('[data-insight-card]');
  var timer, pending;
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text) e.textContent = text; return e; }
  function result(r) {
    var li = el('li', 'card'), h = el('h3', 'text-lg font-semibold'), a = el('a', 'link', r.title), p = el('p', 'mt-2');
    a.href = r.path; h.appendChild(a); li.appendChild(h);
    li.appendChild(el('p', 'mt-1 text-sm text-muted', [r.date, r.category].filter(Boolean).join(' \u00b7 ')));
    r.excerpt.forEach(function (part) { p.appendChild(part.mark ? el('mark', '', part.text) : document.createTextNode(part.text)); });
    li.appendChild(p);
    return li;
  }
  function filterPage(q) {
    var shown = 0;
    cards.forEach(function (c) { var hit = !q || c.textContent.toLowerCase().indexOf(q.toLowerCase()) !== -1; (c.closest('li') || c.parentElement).hidden = !hit; if (hit) shown++; });
    if (empty) empty.hidden = shown > 0 || !q;
  }
  function show(q, found) {
    list.replaceChildren.apply(list, found.results.map(result));
    box.hidden = found.results.length === 0;
    var n = found.total, what = n === 1 ? '1 article matches' : n + ' articles match';
    status.textContent = n === 0 ? 'No articles match \u201c' + q + '\u201d.' : what + ' \u201c' + q + '\u201d' + (n > found.results.length ? '; the ' + found.results.length + ' best are shown.' : '.');
  }
  function run() {
    var q = input.value.trim();
    clearTimeout(timer);
    if (pending) pending.abort();
    if (!q) { box.hidden = true; list.replaceChildren(); status.textContent = ''; filterPage(''); return; }
    timer = setTimeout(function () {
      var ask = pending = new AbortController();
      fetch('/api/insights/search?q=' + encodeURIComponent(q), { signal: ask.signal, headers: { accept: 'application/json' } })
        .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
        .then(function (found) { filterPage(''); show(q, found); })
        .catch(function () {
          if (ask.signal.aborted) return;
          box.hidden = true;
          filterPage(q);
          status.textContent = 'Search is not available right now: showing the matching articles on this page.';
        });
    }, 150);
  }
  input.addEventListener('input', run);
  form.addEventListener('submit', function (e) { e.preventDefault(); run(); });
})();
`;
