// The CommonJS typings (dist/index.d.cts), as `require` users see them.
import hg = require('handoff-graph');

async function main(): Promise<void> {
  await hg.init();
  const g = new hg.HandoffGraph();
  const next: string | null = g.addEdge('a', 'b', 'x == 1').route('a', { x: 1 });
  // @ts-expect-error: route returns string | null
  const wrong: number = g.route('a', {});
  void [next, wrong];
  // Disposable where Symbol.dispose is declared (the CommonJS twin of js/types.d.ts's merging).
  using scoped = new hg.HandoffGraph();
  const disposables: Disposable[] = [scoped, new hg.StateMachine({ name: 'm', start: 'a' })];
  void disposables;
}
void main;
