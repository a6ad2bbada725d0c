// The page's colour theme, set on <html data-theme> before the first paint (a classic script in the
// page's <head>, so a dark reader never sees a white flash). The reader's choice, saved by the header's
// theme menu (theme.js), wins; "auto" or none follows the system, live. After every change the page
// hears `tensorpad-themechange`, for what draws resolved colours (canvas figures) to redraw.
(function () {
  var KEY = 'tensorpad:v1:theme';
  var system = window.matchMedia ? window.matchMedia('(prefers-color-scheme: dark)') : null;
  var unsaved = null; // a choice made while storage is unavailable: it holds for this page
  function valid(c) { return c === 'light' || c === 'dark' || c === 'auto'; }
  function choice() {
    if (unsaved) return unsaved;
    try {
      var c = window.localStorage.getItem(KEY);
      return valid(c) ? c : 'auto';
    } catch (e) {
      return 'auto';
    }
  }
  function apply() {
    var c = choice();
    var theme = c === 'auto' ? (system && system.matches ? 'dark' : 'light') : c;
    var root = document.documentElement;
    if (root.getAttribute('data-theme') === theme) return;
    root.setAttribute('data-theme', theme);
    window.dispatchEvent(new Event('tensorpad-themechange'));
  }
  function choose(c) {
    if (!valid(c)) throw new Error('theme: expected "auto", "light" or "dark", got ' + JSON.stringify(c));
    try {
      if (c === 'auto') window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, c);
      unsaved = null;
    } catch (e) {
      unsaved = c;
    }
    apply();
  }
  apply();
  if (system && system.addEventListener) system.addEventListener('change', apply);
  // Print takes the light colours (style.css): what computes its colours in JavaScript redraws for it.
  var print = window.matchMedia ? window.matchMedia('print') : null;
  if (print && print.addEventListener) print.addEventListener('change', function () { window.dispatchEvent(new Event('tensorpad-themechange')); });
  // Another tab changed the choice.
  window.addEventListener('storage', function (e) { if (e.key === KEY) apply(); });
  window.tensorpadTheme = { KEY: KEY, choice: choice, choose: choose };
})();
