// The compiled forms behind fast routing on the routing module (tests/js/compiled-cases.js): the
// speed work of issue 19 applies to handoff-graph/router too (issue 21), with the same answers.
import * as router from 'handoff-graph/router';

import { compiledTests } from './compiled-cases.js';

await router.init();
compiledTests(router, 'handoff-graph/router');
