// Called by web/build.mjs after the page is built: bundles the judge's Web Worker and copies each
// exercise's trusted modules (reference.js, cases.js: self-contained, see `tensorpad check`) next to
// the page, where web/judge/page/exercise.js finds them.
//   dist/judge-worker.js            the worker (its name gets the server's worker CSP)
//   dist/judge/<id>/reference.js    loaded by the worker with import()
//   dist/judge/<id>/cases.js
import fs from 'node:fs';
import path from 'node:path';
import { EXERCISES_DIR, listExerciseIds } from '../node/exercises.js';

export default async function judgeBuildHook({ esbuild, root, web, dist, common }) {
  await esbuild.build({
    ...common,
    entryPoints: { 'judge-worker': path.join(web, 'judge', 'page', 'worker.js') },
    outdir: dist,
  });
  const exercisesDir = EXERCISES_DIR;  // TENSORPAD_EXERCISES moves it, as for the CLI
  for (const id of listExerciseIds(exercisesDir)) {
    const out = path.join(dist, 'judge', id);
    fs.mkdirSync(out, { recursive: true });
    for (const f of ['reference.js', 'cases.js']) fs.copyFileSync(path.join(exercisesDir, id, f), path.join(out, f));
  }
}
