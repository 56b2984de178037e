// Doubles read by the routing module (tests/js/number-text-cases.js says why): the same cases as
// number-text.test.mjs runs on the full module, in a process of their own (one runtime a process).
import { test } from 'node:test';

import * as router from 'handoff-graph/router';
import { definitionsRoundTrip, literalsReadExactly } from './number-text-cases.js';

await router.init();

test('condition literals read as exactly the double JavaScript reads', () => literalsReadExactly(router));

test('graph definitions with those literals round-trip through JSON text', () => definitionsRoundTrip(router));
