// The three swarm engines of bench/swarm.mjs, each wired to the same scripted model, so that a
// turn's time is everything but the model: handoff-graph's Swarm.runTurn, OpenAI Agents JS's
// Runner (Agent + handoffs, tracing disabled) and LangGraph.js's multi-agent swarm
// (@langchain/langgraph-swarm: createReactAgent agents with createHandoffTool, createSwarm).
// A test (tests/js/bench-swarm.test.mjs) and the benchmark's own agreement check run every case
// on every engine and compare what each turn said, which agent said it and how many model calls
// it took, so the figures compare the same work.
//
// The agents: `triage` (the entry), `billing` and `human`. The cases, one fresh conversation per turn:
//
//   answer   the user says 'answer'; triage's model answers in text: one model call
//   handoff  the user says 'handoff'; triage's model calls transfer_to_human, then human's model
//            answers: two model calls and one handoff decided by the model
//   rule     the conversation's `category` is 'billing'; handoff-graph's rule edge
//            (`category == 'billing'`) moves it to billing before any model call, and billing's
//            model answers: one model call. The peers have no rule edges; each does the closest
//            thing it offers (see RULE_NOTES).
//
// The scripted model is the same function for every engine: `reply(agent, input, afterUser)`.
// It answers in text, except that triage hands off to human when the user said 'handoff' and the
// conversation's last message is the user's (so that after the transfer the human answers).
import { Agent, Runner, setTracingDisabled, Usage } from '@openai/agents';
import { AIMessage } from '@langchain/core/messages';
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { createHandoffTool, createSwarm, getHandoffDestinations, SwarmState } from '@langchain/langgraph-swarm';
import { Annotation, START, StateGraph } from '@langchain/langgraph';
import { Swarm } from 'handoff-graph';

export const CASES = [
  { id: 'answer', name: 'answer turn (one model call, no handoff)', input: 'answer', variables: {}, agent: 'triage', modelCalls: 1 },
  { id: 'handoff', name: 'one handoff (transfer_to_human, then human answers)', input: 'handoff', variables: {}, agent: 'human', modelCalls: 2 },
  { id: 'rule', name: 'rule-edge handoff (category == \'billing\', then billing answers)', input: 'rule', variables: { category: 'billing' }, agent: 'billing', modelCalls: 1 },
];

/** What each peer does for the rule case, since neither has rule edges (printed and published). */
export const RULE_NOTES = {
  'handoff-graph Swarm.runTurn()': 'a rule edge `category == \'billing\'`, evaluated in WebAssembly at the start of the turn; no model call',
  'OpenAI Agents JS run()': 'no rule edges: the host checks `category` in its own code and runs the billing agent',
  'LangGraph.js langgraph-swarm': 'createSwarm\'s graph with its START router (a conditional edge) also reading `category`',
};

/** The scripted model's decision, shared by every engine. */
export function reply(agent, input, afterUser) {
  if (agent === 'triage' && input === 'handoff' && afterUser) return { handoffTo: 'human' };
  return { text: `${agent} answers '${input}'` };
}

const INSTRUCTIONS = {
  triage: 'You greet the customer and find out what they need.',
  billing: 'You answer questions about invoices and refunds.',
  human: 'You are a person on the support team.',
};
const HUMAN_DESCRIPTION = 'Transfer to a human operator when the customer asks for a person.';

/** A counter every engine's model increments, so the checks can see how many calls a turn made. */
export const modelCalls = { count: 0 };

// ---------------------------------------------------------------------------------------------
// handoff-graph: one Swarm; a turn is a fresh session and one runTurn, drained to `done`.

function handoffGraph() {
  const swarm = new Swarm({
    name: 'support',
    agents: [
      { id: 'triage', instructions: INSTRUCTIONS.triage, entry: true },
      { id: 'billing', instructions: INSTRUCTIONS.billing },
      { id: 'human', instructions: INSTRUCTIONS.human },
    ],
    edges: [
      { from: 'triage', to: 'billing', when: "category == 'billing'" },
      { from: 'triage', to: 'human', description: HUMAN_DESCRIPTION },
    ],
  });
  const model = ({ agent, messages }) => {
    modelCalls.count++;
    const last = messages.at(-1);
    const input = messages.findLast((m) => m.role === 'user').content;
    const r = reply(agent.id, input, last.role === 'user');
    return r.handoffTo ? { toolCalls: [{ id: 'call_1', name: `transfer_to_${r.handoffTo}`, arguments: {} }] } : { text: r.text };
  };
  const options = { model };
  return async ({ input, variables }) => {
    const session = swarm.createSession({ variables });
    let done = null;
    for await (const event of swarm.runTurn(session, input, options)) if (event.type === 'done') done = event;
    return { agent: done.agent, text: done.text };
  };
}

// ---------------------------------------------------------------------------------------------
// OpenAI Agents JS: Agents with a Model of our own (the SDK's Model interface) that returns the
// scripted reply as Responses-API output items; the real Runner, tracing disabled.

class ScriptedAgentsModel {
  constructor(agent) {
    this.agent = agent;
  }

  async getResponse(request) {
    modelCalls.count++;
    const items = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : request.input;
    const user = items.findLast((item) => item.role === 'user');
    const input = typeof user.content === 'string' ? user.content : user.content.map((c) => c.text).join('');
    const r = reply(this.agent, input, items.at(-1).role === 'user');
    const output = r.handoffTo
      ? [{ type: 'function_call', callId: 'call_1', name: request.handoffs.find((h) => h.toolName === `transfer_to_${r.handoffTo}`).toolName, arguments: '{}', status: 'completed' }]
      : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: r.text }] }];
    return { usage: new Usage(), output };
  }

  // biome-ignore lint/correctness/useYield: the benchmark never streams; the interface requires the method
  async *getStreamedResponse() {
    throw new Error('not used by the benchmark');
  }
}

function openAIAgents() {
  setTracingDisabled(true);
  const agent = (name, more) => new Agent({ name, instructions: INSTRUCTIONS[name], model: new ScriptedAgentsModel(name), ...more });
  const human = agent('human', { handoffDescription: HUMAN_DESCRIPTION });
  const billing = agent('billing');
  const triage = agent('triage', { handoffs: [human] });
  const runner = new Runner({ tracingDisabled: true });
  return async ({ input, variables }) => {
    // The rule, in the host's own code: the SDK has no deterministic routing of its own.
    const start = variables.category === 'billing' ? billing : triage;
    const result = await runner.run(start, input);
    return { agent: result.lastAgent.name, text: result.finalOutput };
  };
}

// ---------------------------------------------------------------------------------------------
// LangGraph.js: @langchain/langgraph-swarm's createSwarm over prebuilt createReactAgent agents,
// each with a chat model of our own (a minimal BaseChatModel) that returns the scripted reply.

class ScriptedChatModel extends BaseChatModel {
  constructor(agent) {
    super({});
    this.agent = agent;
  }

  _llmType() {
    return 'scripted';
  }

  // The tools are fixed by the script; createReactAgent needs the method to exist.
  bindTools() {
    return this;
  }

  async _generate(messages) {
    modelCalls.count++;
    const last = messages.at(-1);
    const user = messages.findLast((m) => m._getType() === 'human');
    const r = reply(this.agent, user.content, last._getType() === 'human');
    const message = r.handoffTo
      ? new AIMessage({ content: '', tool_calls: [{ id: 'call_1', name: `transfer_to_${r.handoffTo}`, args: {}, type: 'tool_call' }] })
      : new AIMessage({ content: r.text });
    return { generations: [{ text: r.text ?? '', message }] };
  }
}

function langGraphAgents() {
  const react = (name, tools) => createReactAgent({ llm: new ScriptedChatModel(name), tools, name, prompt: INSTRUCTIONS[name] });
  return [
    react('triage', [createHandoffTool({ agentName: 'human', description: HUMAN_DESCRIPTION })]),
    react('billing', []),
    react('human', []),
  ];
}

function langGraph() {
  const agents = langGraphAgents();
  const app = createSwarm({ agents, defaultActiveAgent: 'triage' }).compile();

  // The rule case: a graph built the way langgraph-swarm's createSwarm builds its own, with the
  // START router (LangGraph's conditional edge) also reading `category`: LangGraph's closest
  // equivalent of a rule edge. A `category` channel is added to the swarm's state for it.
  const State = Annotation.Root({ ...SwarmState.spec, category: Annotation });
  const names = agents.map((a) => a.name);
  const ruled = new StateGraph(State)
    .addConditionalEdges(START, (s) => (s.category === 'billing' ? 'billing' : (s.activeAgent ?? 'triage')), names);
  for (const agent of agents) ruled.addNode(agent.name, agent, { ends: getHandoffDestinations(agent), subgraphs: [agent] });
  const ruledApp = ruled.compile();

  return async ({ input, variables }) => {
    const messages = [{ role: 'user', content: input }];
    const result = variables.category === undefined
      ? await app.invoke({ messages })
      : await ruledApp.invoke({ messages, ...variables });
    // createReactAgent names each answer after its agent.
    const last = result.messages.at(-1);
    return { agent: last.name, text: last.content };
  };
}

/** name → () => turn, where turn({ input, variables }) resolves { agent, text } of one whole turn. */
export const ENGINES = {
  'handoff-graph Swarm.runTurn()': handoffGraph,
  'OpenAI Agents JS run()': openAIAgents,
  'LangGraph.js langgraph-swarm': langGraph,
};

/**
 * Runs every case once on a built engine; returns [{ case, agent, text, modelCalls }]. Throws when
 * a turn's answer, answering agent or number of model calls is not the case's.
 */
export async function checkEngine(name, turn) {
  const seen = [];
  for (const c of CASES) {
    const before = modelCalls.count;
    const result = await turn(c);
    const calls = modelCalls.count - before;
    const expected = `${c.agent} answers '${c.input}'`;
    if (result.text !== expected || result.agent !== c.agent || calls !== c.modelCalls) {
      throw new Error(`${name}, ${c.id}: ${result.agent} said ${JSON.stringify(result.text)} after ${calls} model calls; expected ${c.agent}, ${JSON.stringify(expected)}, ${c.modelCalls} calls`);
    }
    seen.push({ case: c.id, agent: result.agent, text: result.text, modelCalls: calls });
  }
  return seen;
}
