// The route cases (bench/route-cases.mjs) in Node on handoff-graph/router, the routing module: a
// process holds one runtime, so bench/route.mjs runs this in a child process of its own and
// reads the JSON it prints. The peers are timed again here, interleaved with this module's
// route(), so that the ratios come from one process as the main tables' do.
// Usage: node bench/router-node.mjs [--repetitions 7] [--target-ms 100] [--agreement 2000]
import * as router from 'handoff-graph/router';

import { runRouteCases } from './route-cases.mjs';

const args = process.argv.slice(2);
const argValue = (flag, fallback) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : fallback);
const started = performance.now();
await router.init();
const initMs = performance.now() - started;
const result = runRouteCases(router, {
  repetitions: argValue('--repetitions', 7),
  targetMs: argValue('--target-ms', 100),
  agreementStates: argValue('--agreement', 2000),
});
console.log(JSON.stringify({ entry: 'handoff-graph/router', initMs, ...result }));
