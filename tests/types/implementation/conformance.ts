// The entries that run against the declarations they are given. handoff-graph's declarations are
// emitted from js/index.js (the Node entry's exports and the shapes), and package.json gives them to
// every condition of 'handoff-graph' and 'handoff-graph/inline'; handoff-graph/router's are emitted
// from js/router.js and given to Node's js/router-node.js too (docs/architecture.md#typings). So
// each of those entries exports exactly the values of its declarations, and an init of the same
// type. (The classes and functions are declared from their own JSDoc: nothing else to compare.)
import type * as Published from '../../../js/index.js';
import type * as PublishedRouter from '../../../js/router.js';
import type * as Node from '../../../js/node.js';
import type * as Browser from '../../../js/browser.js';
import type * as Deno from '../../../js/deno.js';
import type * as Inline from '../../../js/inline.js';
import type * as RouterNode from '../../../js/router-node.js';

type Fits<A, B> = [A] extends [B] ? true : false;
type Both<A, B> = Fits<A, B> extends true ? Fits<B, A> : false;
type Holds<T extends true> = T;
type SameValues<Entry, Declared> = Both<keyof Entry, keyof Declared>;

export type Checks = [
  Holds<SameValues<typeof Node, typeof Published>>,
  Holds<SameValues<typeof Browser, typeof Published>>,
  Holds<SameValues<typeof Deno, typeof Published>>,
  Holds<SameValues<typeof Inline, typeof Published>>,
  Holds<SameValues<typeof RouterNode, typeof PublishedRouter>>,
  Holds<Both<typeof Browser.init, typeof Published.init>>,
  Holds<Both<typeof Deno.init, typeof Published.init>>,
  Holds<Both<typeof Inline.init, typeof Published.init>>,
  Holds<Both<typeof RouterNode.init, typeof PublishedRouter.init>>,
];
