/**
 * The public pages' own inline scripts, kept here as text so the server can allow exactly these
 * (by hash, in each page's Content-Security-Policy) and nothing else that appears in a page.
 * Plain browser JavaScript, no framework: a component renders one with
 * `<script is:inline set:html={SCRIPT} />`.
 */

/**
 * Menu toggle, scroll shadow, signed-in links. The signed-in check only asks the server when the
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
  m.addEventListener('click', function (e) { if (e.target.closest('a')) setMenu(false); });
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape' && !m.hidden) { setMenu(false); t.focus(); } });
  function show(signedIn) {
    document.querySelectorAll('[data-auth]').forEach(function (el) { el.hidden = (el.dataset.auth === 'in') !== signedIn; });
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
 * The insights search: Pagefind's script and index (served from our origin at /pagefind/) load
 * when the box is first focused, never before; results show as one types, and a status line says
 * how many matched (a live region, so a screen reader hears it). Results are built as text nodes:
 * nothing from an article is parsed as HTML. Without the index (a site not yet indexed), the box
 * filters the cards on the page, as it did before search existed.
 */
export const INSIGHT_SEARCH_SCRIPT = `
(function () {
  var form = document.getElementById('insight-search-form'), input = document.getElementById('insight-search');
  var status = document.getElementById('search-status'), box = document.getElementById('search-results'), list = document.getElementById('search-list');
  var empty = document.getElementById('search-empty'), cards = document.querySelectorAll('[data-insight-card]');
  var SHOWN = 10, engine, seq = 0;
  function load() {
    engine = engine || import('/pagefind/pagefind.js').then(function (pf) {
      return pf.options({ excerptLength: 28, excerptEllipsis: '\u2026' }).then(function () { return pf.init(); }).then(function () { return pf; });
    });
    return engine;
  }
  function el(tag, cls, text) { var e = document.createElement(tag); if (cls) e.className = cls; if (text) e.textContent = text; return e; }
  function excerpt(text) {
    var p = el('p', 'mt-2'), on = false;
    text.split(/(<\\/?mark>)/).forEach(function (part) {
      if (part === '<mark>' || part === '</mark>') { on = part === '<mark>'; return; }
      if (part) p.appendChild(on ? el('mark', '', part) : document.createTextNode(part));
    });
    return p;
  }
  function result(d) {
    var li = el('li', 'card'), h = el('h3', 'text-lg font-semibold'), a = el('a', 'link', (d.meta && d.meta.title) || d.url);
    a.href = d.url; h.appendChild(a); li.appendChild(h);
    var about = [d.meta && d.meta.date, d.meta && d.meta.category].filter(Boolean).join(' · ');
    if (about) li.appendChild(el('p', 'mt-1 text-sm text-muted', about));
    li.appendChild(excerpt(d.excerpt || ''));
    return li;
  }
  function filterPage(q) {
    var shown = 0;
    cards.forEach(function (c) { var hit = !q || c.textContent.toLowerCase().indexOf(q.toLowerCase()) !== -1; (c.closest('li') || c.parentElement).hidden = !hit; if (hit) shown++; });
    if (empty) empty.hidden = shown > 0 || !q;
  }
  function show(q, total, items) {
    list.replaceChildren.apply(list, items.map(result));
    box.hidden = false;
    var what = total === 1 ? '1 article matches' : total + ' articles match';
    status.textContent = total === 0 ? 'No articles match \u201c' + q + '\u201d.' : what + ' \u201c' + q + '\u201d' + (total > items.length ? '; the ' + items.length + ' best are shown.' : '.');
  }
  function run() {
    var q = input.value.trim(), n = ++seq;
    if (!q) { box.hidden = true; list.replaceChildren(); status.textContent = ''; filterPage(''); return; }
    load().then(function (pf) { return pf.debouncedSearch(q, {}, 120); }).then(function (search) {
      if (!search || n !== seq) return;
      return Promise.all(search.results.slice(0, SHOWN).map(function (r) { return r.data(); })).then(function (items) {
        if (n === seq) show(q, search.results.length, items);
      });
    }).catch(function () {
      if (n !== seq) return;
      box.hidden = true;
      filterPage(q);
      status.textContent = 'Search is not available right now: showing the matching articles on this page.';
    });
  }
  input.addEventListener('focus', function () { load().catch(function () {}); }, { once: true });
  input.addEventListener('input', run);
  form.addEventListener('submit', function (e) { e.preventDefault(); run(); });
})();
`;
