// The one-click examples. Graph examples fill the Rules panel; machine examples the State machine
// panel (a definition in the package's JSON format, scripted updates per state, an initial state);
// swarm examples the Handoffs panel (a swarm definition and the session's variables).

const GRAPH = { format: 'handoff-graph', version: 1 };
/** A machine definition with its keys in the order toJSON() writes them. */
const machine = ({ name, start, maxSteps, states, edges, reducers }) => ({
  format: 'handoff-graph/state-machine',
  version: 1,
  name,
  start,
  maxSteps,
  onMaxSteps: 'return',
  feedbackOnRevisit: true,
  states,
  edges,
  reducers,
});

export const EXAMPLES = [
  {
    name: 'triage',
    title: 'Triage',
    blurb: 'Tickets go to billing, support, or a human when nothing else matches.',
    kind: 'graph',
    node: 'triage',
    graph: {
      ...GRAPH,
      nodes: [{ id: 'triage', description: 'First stop for every ticket' }],
      edges: [
        { from: 'triage', to: 'billing', when: "category == 'billing'" },
        { from: 'triage', to: 'support', when: "category == 'support'", description: 'Support questions' },
        { from: 'triage', to: 'human', description: 'Everything else' },
      ],
    },
    state: { category: 'billing', message: 'I was charged twice this month' },
  },
  {
    name: 'escalation',
    title: 'Escalation rule',
    blurb: "Gold customers, or urgent tickets above priority 3, skip the queue.",
    kind: 'graph',
    node: 'intake',
    graph: {
      ...GRAPH,
      edges: [
        {
          from: 'intake',
          to: 'escalations',
          when: "user.tier == 'gold' or (priority > 3 and 'urgent' in tags)",
          description: 'Gold customers, and urgent high-priority tickets',
        },
        { from: 'intake', to: 'queue' },
        { from: 'escalations', to: 'on-call', when: 'priority >= 5' },
        { from: 'escalations', to: 'account-manager' },
      ],
    },
    state: { user: { tier: 'silver' }, priority: 5, tags: ['urgent', 'outage'] },
  },
  {
    name: 'tool-router',
    title: 'Tool-router loop',
    blurb: "'analyze' picks a tool on each visit; each tool hands control back, until it is done.",
    kind: 'machine',
    machine: machine({
      name: 'tool-router',
      start: 'analyze',
      maxSteps: 20,
      states: [{ name: 'analyze' }, { name: 'toolA' }, { name: 'toolB' }],
      edges: [
        { from: 'analyze', to: 'toolA', when: "decision == 'A'" },
        { from: 'analyze', to: 'toolB', when: "decision == 'B'" },
        { from: 'analyze', to: '__end__', description: 'anything else finishes' },
        { from: 'toolA', to: 'analyze' },
        { from: 'toolB', to: 'analyze' },
      ],
      reducers: { results: 'append' },
    }),
    scripts: {
      analyze: [{ decision: 'A' }, { decision: 'B' }, { decision: 'done' }],
      toolA: { results: { tool: 'toolA', output: 'weather for Paris: sunny' } },
      toolB: { results: { tool: 'toolB', output: 'calendar: free at 3pm' } },
    },
    state: { question: 'Paris', results: [] },
  },
  {
    name: 'critique',
    title: 'Critique loop',
    blurb: "A rejected draft goes back to the writer, at most until it has written three times.",
    kind: 'machine',
    machine: machine({
      name: 'critique-loop',
      start: 'write',
      maxSteps: 20,
      states: [{ name: 'write' }, { name: 'critique' }, { name: 'publish' }],
      edges: [
        { from: 'write', to: 'critique' },
        { from: 'critique', to: 'write', when: "verdict == 'reject' and $visits.write < 3", description: 'bounded retry' },
        { from: 'critique', to: 'publish' },
        { from: 'publish', to: '__end__' },
      ],
      reducers: { notes: 'append' },
    }),
    scripts: {
      write: [
        { draft: 'Rust is memory-safe' },
        { draft: 'Rust is memory-safe + a source' },
        { draft: 'Rust is memory-safe + a source + an example' },
      ],
      critique: [
        { verdict: 'reject', notes: 'a source' },
        { verdict: 'reject', notes: 'an example' },
        { verdict: 'reject', notes: 'a caveat' },
      ],
      publish: { published: true },
    },
    state: { topic: 'Rust is memory-safe', notes: [] },
  },
  {
    name: 'research-fan-out',
    title: 'Parallel research',
    blurb: "'search' runs three searches at once and joins them; 'summarize' maps one summarizer over the found documents.",
    kind: 'machine',
    machine: machine({
      name: 'research',
      start: 'search',
      maxSteps: 10,
      states: [
        { name: 'search', branches: ['web', 'docs', 'papers'] },
        { name: 'web' },
        { name: 'docs' },
        { name: 'papers' },
        { name: 'summarize', map: { state: 'summarizeOne', over: 'found' }, concurrency: 2 },
        { name: 'summarizeOne' },
        { name: 'write' },
      ],
      edges: [
        { from: 'search', to: 'summarize' },
        { from: 'summarize', to: 'write' },
        { from: 'write', to: '__end__' },
      ],
      reducers: { found: 'append', summaries: 'append' },
    }),
    scripts: {
      web: { found: 'web: 3 pages' },
      docs: { found: 'docs: 1 page' },
      papers: { found: 'papers: 2 papers' },
      summarizeOne: [{ summaries: 'web, in short' }, { summaries: 'docs, in short' }, { summaries: 'papers, in short' }],
      write: { report: 'three summaries, one report' },
    },
    state: { topic: 'sea otters', found: [], summaries: [] },
  },
  {
    name: 'hybrid-swarm',
    title: 'Hybrid swarm',
    blurb: "Billing by rule, a person by the model's choice (with a ticket id), and from billing only for refunds over 100.",
    kind: 'swarm',
    swarm: {
      name: 'support',
      maxHops: 6,
      agents: [
        { id: 'triage', name: 'Triage', description: 'First stop for every conversation', instructions: 'You greet the customer and find out what they need.', entry: true },
        { id: 'billing', name: 'Billing', instructions: 'You answer questions about invoices and refunds.' },
        { id: 'human', name: 'Human operator', description: 'A person on the support team' },
      ],
      edges: [
        { from: 'triage', to: 'billing', when: "category == 'billing'", description: 'A rule: taken as soon as category is billing' },
        {
          from: 'triage',
          to: 'human',
          description: 'Transfer to a human operator when the customer asks for a person.',
          requires: [{ name: 'ticketId', from: 'model', type: 'string', description: 'the ticket number, e.g. T-1042' }],
        },
        { from: 'billing', to: 'human', when: 'amount > 100', offer: true, description: 'Refunds over 100 need a person.' },
        { from: 'billing', to: 'triage', description: 'The question is not about billing.' },
        { from: 'human', to: 'triage', description: 'Hand the conversation back to the assistant.' },
      ],
    },
    variables: { category: 'general', amount: 250 },
  },
];

export const exampleByName = (name) => EXAMPLES.find((e) => e.name === name);
