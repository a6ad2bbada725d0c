// Which cell defines a name: for the hint under a ReferenceError (web/src/notebook.js).

// Whether a cell's source declares `name` on a line of its own (a hint, not a parse: the page has no
// parser): `const|let|var ... name =|,|}|]` (one of several declarators, or destructured), a function
// or a class. Identifiers may hold any letter or $, so the name's end is "no identifier character".
export function declaresName(source, name) {
  const n = name.replace(/[$]/g, '\\$&');
  const end = '(?![\\p{L}\\p{N}_$])';
  return new RegExp(`^(?:export\\s+)?(?:(?:const|let|var)\\s+(?:[^;\\n]*[\\s,{\\[:])?${n}${end}\\s*(?:[=,}\\]]|$)` +
    `|(?:async\\s+)?function\\s*\\*?\\s*${n}${end}|class\\s+${n}${end})`, 'mu').test(source);
}
