// The compiled forms behind fast routing on the full module (tests/js/compiled-cases.js).
import * as full from 'handoff-graph';

import { compiledTests } from './compiled-cases.js';

await full.init();
compiledTests(full, 'handoff-graph');
