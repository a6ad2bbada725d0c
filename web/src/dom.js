// Small DOM helpers: h('button', { class, onclick, 'aria-label' }, ...children).
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k === 'html') el.innerHTML = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
  return el;
}

/** Removes scripts, frames, event handlers and javascript: URLs from author/cell HTML. */
export function sanitize(html) {
  const tpl = document.createElement('template');
  tpl.innerHTML = html;
  for (const el of tpl.content.querySelectorAll('script, iframe, object, embed, link, meta, base, form')) el.remove();
  for (const el of tpl.content.querySelectorAll('*')) {
    for (const a of [...el.attributes]) {
      if (/^on/i.test(a.name) || (/^(href|src|xlink:href|action)$/i.test(a.name) && /^\s*(javascript|data:text\/html)/i.test(a.value))) el.removeAttribute(a.name);
      else if (/^(src|srcset)$/i.test(a.name) && /^\s*(https?:)?\/\//i.test(a.value)) el.removeAttribute(a.name);
    }
  }
  return tpl.content;
}

export function download(filename, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = h('a', { href: url, download: filename, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

let trackedHeight = null; // px, once trackStickyHeader has measured

/**
 * Keeps the CSS variable --header-h equal to the height of `header` while it sticks to the top of the
 * page (0 when a media query makes it scroll away), so that style.css's scroll-padding brings focused
 * controls and anchors into view below the header rather than under it.
 */
export function trackStickyHeader(header) {
  let last = null;
  const update = () => {
    const sticky = header.isConnected && getComputedStyle(header).position === 'sticky';
    const value = sticky ? `${Math.ceil(header.getBoundingClientRect().height)}px` : '0px';
    // Set only when it changes: a variable set on the root restyles the whole page.
    if (value !== last) document.documentElement.style.setProperty('--header-h', (last = value));
    trackedHeight = parseFloat(value);
  };
  // The first observation comes after the first layout: measured then, not by a forced layout of a page
  // still being built.
  new ResizeObserver(update).observe(header);
  addEventListener('resize', update);
}

/** The height the sticky header covers at the top of the window (0 when it scrolls away), in px. Read from
 *  trackStickyHeader's last measure where it runs (every editor asks, and getComputedStyle restyles a page
 *  being built). */
export function headerHeight() {
  return trackedHeight ?? (parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--header-h')) || 0);
}
