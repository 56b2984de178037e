// The browser app every bundler fixture builds (vite, webpack, rollup, parcel): the package
// imported by name, as an application does, with no bundler configuration for it.
import { settle } from './report-page.mjs';
import { init, HandoffGraph } from 'handoff-graph';
import { triage } from './triage.mjs';

settle(async () => {
  await init();
  const routes = triage(HandoffGraph);
  return { routes, firstRouteMs: performance.now() };
});
