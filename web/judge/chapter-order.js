// The order a reader meets the exercises in: chapter by chapter (by each chapter's `order`, as the site
// lists them), in the order of the chapter's `:::exercise <id>` directives (in en.md; zh.md places the
// same blocks in the same order). Exercises no chapter places follow, alphabetically.
//   exercisesInChapterOrder(ids, chaptersDir?) → ids reordered
//   exerciseDirectives(markdown)                → the ids a chapter's text places, in order

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CHAPTERS_DIR = fileURLToPath(new URL('../chapters/', import.meta.url));

function frontMatterOrder(text) {
  const front = /^---\n([\s\S]*?)\n---/.exec(text.replace(/\r\n/g, '\n'));
  const m = front && /^order:\s*(-?\d+(?:\.\d+)?)/m.exec(front[1]);
  return m ? Number(m[1]) : 0;
}

// The ids of `:::exercise <id>` lines, skipping fenced code (where a chapter may show the syntax).
export function exerciseDirectives(text) {
  const ids = [];
  let fence = null;
  for (const line of text.split(/\r?\n/)) {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f && (!fence || f[1].startsWith(fence))) fence = fence ? null : f[1];
    else if (!fence) {
      const m = /^:::exercise\s+(\S+)/.exec(line);
      if (m) ids.push(m[1]);
    }
  }
  return ids;
}

function chapters(chaptersDir) {
  if (!existsSync(chaptersDir)) return [];
  return readdirSync(chaptersDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(chaptersDir, d.name, 'en.md')))
    .map((d) => {
      const text = readFileSync(join(chaptersDir, d.name, 'en.md'), 'utf8');
      return { id: d.name, order: frontMatterOrder(text), text };
    })
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

export function exercisesInChapterOrder(ids, chaptersDir = CHAPTERS_DIR) {
  const known = new Set(ids);
  const placed = [...new Set(chapters(chaptersDir).flatMap((c) => exerciseDirectives(c.text)))].filter((id) => known.has(id));
  const rest = ids.filter((id) => !placed.includes(id)).sort();
  return [...placed, ...rest];
}
