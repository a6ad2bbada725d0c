// Starts the download of the chapter the URL names, in the language the page will most likely show (and of
// the formulas' two main faces), as the page's <head> is read: main.js asks for the same file once its
// modules have loaded, and gets this download rather than starting one then. A classic script (the page's CSP allows no inline script);
// its guess is main.js's pickLang: the URL's lang, the reader's saved language, the browser's.
(function () {
  var params = new URLSearchParams(location.search);
  var id = params.get('chapter');
  if (!id || id === 'scratch') return;
  var saved = null;
  try { saved = window.localStorage.getItem('tensorpad:v1:lang'); } catch (e) { /* storage off */ }
  var wanted = [params.get('lang'), saved, (navigator.language || '').indexOf('zh') === 0 ? 'zh' : 'en'];
  var lang = 'en';
  for (var i = 0; i < wanted.length; i++) if (wanted[i] === 'en' || wanted[i] === 'zh') { lang = wanted[i]; break; }
  var preload = function (as, href, type) {
    var link = document.createElement('link');
    link.rel = 'preload';
    link.as = as;
    link.crossOrigin = 'anonymous';
    if (type) link.type = type;
    link.href = href;
    document.head.appendChild(link);
  };
  preload('fetch', 'chapters/' + encodeURIComponent(id) + '/' + lang + '.json');
  // The two faces most of a chapter's formulas are set in. KaTeX's faces block their text until they have
  // loaded (font-display: block), and the stylesheet asks for them only once a formula is laid out, after
  // the chapter has arrived and its first screen is drawn: asked for now, its formulas show with it.
  preload('font', 'katex/fonts/KaTeX_Main-Regular.woff2', 'font/woff2');
  preload('font', 'katex/fonts/KaTeX_Math-Italic.woff2', 'font/woff2');
})();
