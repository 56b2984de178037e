// The subpaths of package.json's exports, by kind, for the checks that must name them
// (scripts/test.sh runs arethetypeswrong on each kind with its own profile):
//   node scripts/entrypoints.mjs assets     subpaths that are files, not modules (no types;
//                                           ./package.json aside)
//   node scripts/entrypoints.mjs esm-only   modules with no `require` condition anywhere
//   node scripts/entrypoints.mjs dual       modules that also have a `require` condition
// Names are printed as attw takes them ('stores/memory', not './stores/memory'), one line.
import { readFileSync } from 'node:fs';

const kind = process.argv[2];
const { exports } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const conditions = (target) =>
  target !== null && typeof target === 'object' ? Object.entries(target).flatMap(([k, v]) => [k, ...conditions(v)]) : [];

function kindOf(subpath, target) {
  if (subpath === './package.json') return 'manifest';  // attw checks it with the dual entries
  if (!conditions(target).includes('types')) return 'assets';
  return conditions(target).includes('require') ? 'dual' : 'esm-only';
}

const names = Object.entries(exports)
  .filter(([subpath, target]) => subpath !== '.' && kindOf(subpath, target) === kind)
  .map(([subpath]) => subpath.slice(2));
if (kind === 'dual' && kindOf('.', exports['.']) === 'dual') names.unshift('.');
if (!['assets', 'esm-only', 'dual'].includes(kind)) {
  console.error('usage: node scripts/entrypoints.mjs assets|esm-only|dual');
  process.exit(2);
}
console.log(names.join(' '));
