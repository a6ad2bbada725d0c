// The order a reader meets the exercises in: chapter by chapter (by each chapter's `order`, as the site
// lists them), in the order of the chapter's `:::exercise <id>` directives (in en.md; zh.md places the
// same blocks in the same order). Exercises no chapter places follow, alphabetically. The chapters are
// read by the chapter parser itself (web/content/chapter.mjs), so fences, :::details and front matter
// mean here what they mean on the page.
//   exercisesInChapterOrder(ids, chaptersDir?) → ids reordered
//   exerciseDirectives(markdown, lang?)         → { order, ids }: the chapter's order and the ids it places

import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseChapter, createMarkdown } from '../../content/chapter.mjs';

export const CHAPTERS_DIR = fileURLToPath(new URL('../../chapters/', import.meta.url));

// Every id counts as an exercise here: what is placed matters, not whether its folder is valid.
const ANY_EXERCISE = { has: () => true, get: () => ({}) };
let md = null;

export function exerciseDirectives(text, lang = 'en') {
  md ??= createMarkdown();
  const { meta, blocks } = parseChapter(text, { file: 'chapter.md', lang, exercises: ANY_EXERCISE, md });
  const ids = [];
  const walk = (list) => {
    for (const b of list) {
      if (b.type === 'exercise') ids.push(b.id);
      if (b.type === 'details') walk(b.children);
    }
  };
  walk(blocks);
  return { order: typeof meta.order === 'number' ? meta.order : 0, ids };
}

function chapters(chaptersDir) {
  if (!existsSync(chaptersDir)) return [];
  return readdirSync(chaptersDir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(chaptersDir, d.name, 'en.md')))
    .map((d) => ({ id: d.name, ...exerciseDirectives(readFileSync(join(chaptersDir, d.name, 'en.md'), 'utf8')) }))
    .sort((a, b) => a.order - b.order || a.id.localeCompare(b.id));
}

export function exercisesInChapterOrder(ids, chaptersDir = CHAPTERS_DIR) {
  const known = new Set(ids);
  const placed = [...new Set(chapters(chaptersDir).flatMap((c) => c.ids))].filter((id) => known.has(id));
  const rest = ids.filter((id) => !placed.includes(id)).sort();
  return [...placed, ...rest];
}
