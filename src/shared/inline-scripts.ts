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

/** The insights search box filters the cards already on the page; no request is made. */
export const INSIGHT_SEARCH_SCRIPT = `
(function () {
  var input = document.getElementById('insight-search'), empty = document.getElementById('search-empty');
  var cards = document.querySelectorAll('[data-insight-card]');
  document.getElementById('insight-search-form').addEventListener('submit', function (e) { e.preventDefault(); });
  input.addEventListener('input', function () {
    var q = input.value.trim().toLowerCase(), shown = 0;
    cards.forEach(function (c) { var hit = !q || c.dataset.search.indexOf(q) !== -1; (c.closest('li') || c.parentElement).hidden = !hit; if (hit) shown++; });
    if (empty) empty.hidden = shown > 0 || !q;
  });
})();
`;
