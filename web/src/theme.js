// The header's theme menu (Auto / Light / Dark). The choice is saved and applied by the early script
// assets/theme-boot.js (window.tensorpadTheme), which also follows the system on "auto".
import { h } from './dom.js';
import { t } from './i18n.js';

const CHOICES = ['auto', 'light', 'dark'];

/** A <select> for the header, or null when the page shell came without its early script. */
export function themeMenu(lang) {
  const boot = globalThis.tensorpadTheme;
  if (!boot) return null;
  const current = boot.choice();
  const select = h('select', { class: 'theme-select', 'data-testid': 'theme-select', 'aria-label': t(lang, 'theme'), title: t(lang, 'theme') },
    CHOICES.map((c) => h('option', { value: c, selected: c === current }, t(lang, `theme-${c}`))));
  select.addEventListener('change', () => boot.choose(select.value));
  // Another tab changed the choice: show it here too.
  addEventListener('storage', (e) => { if (e.key === boot.KEY) select.value = boot.choice(); });
  return select;
}
