// Panel 4, Handoffs: a swarm definition (new Swarm(definition), checked as you type), the session's
// variables, the active agent; the transfer tools it is offered in each SDK format, exactly as
// swarm.tools(session, format) returns them; applyRules and a tool call with their outcomes. The
// Conversation panel runs turns on the same swarm and session (current(), refresh()).
import { DefinitionError, Swarm, TOOL_FORMATS } from 'handoff-graph';

import { clear, compact, h } from './dom.js';
import { createEditor } from './editor.js';
import { formatJSON, formatState } from './format.js';
import { lineColumn, parseJSON } from './jsonpos.js';
import { locate, renderProblems } from './problems.js';

const FORMAT_LABELS = {
  'openai-responses': 'OpenAI Responses',
  'openai-chat': 'OpenAI Chat Completions',
  anthropic: 'Anthropic Messages',
  'ai-sdk': 'Vercel AI SDK',
};

/** @param {{ onChange?: (change: any) => void }} [options] */
export function createHandoffsPanel(options = {}) {
  const { onChange } = options;
  let swarm = null;             // the Swarm of the definition, null while it has problems
  let session = null;
  let parsedDefinition = null;
  let parsedVariables = null;
  let definitionValue = null;   // the definition the swarm was made from
  const history = [];           // outcomes of this session, newest last

  const definitionEditor = createEditor({
    testid: 'swarm-editor',
    label: 'Swarm definition',
    hint: 'JSON read by new Swarm(definition); a change starts a new session',
    rows: 16,
    onInput: () => rebuild(true),
  });
  const variablesEditor = createEditor({
    testid: 'swarm-variables',
    label: 'Session variables',
    hint: 'JSON: what conditions and required variables read (session.variables)',
    rows: 3,
    onInput: () => setVariables(true),
  });
  const errorBox = h('div.problems', { testid: 'swarm-error', role: 'alert', hidden: true });
  const active = h('div.swarm-active', { testid: 'swarm-active', 'aria-live': 'polite' });
  const formatSelect = h(
    'select',
    { testid: 'swarm-format', 'aria-label': 'Tool format', on: { change: () => renderTools() } },
    TOOL_FORMATS.map((f) => h('option', { value: f, selected: f === 'anthropic' }, `${FORMAT_LABELS[f] ?? f} (${f})`)),
  );
  const toolsView = h('pre.state-view.tools-view', { testid: 'swarm-tools' });
  const toolSelect = h('select', { testid: 'swarm-call-tool', 'aria-label': 'Tool to call', on: { change: () => prefillArguments() } });
  const argsInput = h('textarea.mono.args-input', {
    testid: 'swarm-call-args',
    rows: 3,
    spellcheck: 'false',
    'aria-label': 'Tool call arguments (JSON)',
  });
  const callButton = h('button.primary', { type: 'submit', testid: 'swarm-call' }, 'Call tool');
  const rulesButton = h('button', { type: 'button', testid: 'swarm-rules', title: 'swarm.applyRules(session), until no rule holds', on: { click: () => rules() } }, 'Apply rules');
  const resetButton = h('button', { type: 'button', testid: 'swarm-reset', title: 'A new session at the entry agent, with these variables', on: { click: () => resetSession(true) } }, 'Reset session');
  const outcomeBox = h('div.outcome', { testid: 'swarm-outcome', role: 'status', 'aria-live': 'polite' });
  const log = h('ol.swarm-log', { testid: 'swarm-log', 'aria-label': 'Routing decisions of this session' });
  const callForm = h(
    'form.swarm-call',
    {
      on: {
        submit: (event) => {
          event.preventDefault();
          call();
        },
      },
    },
    h('div.add-edge-row', {}, h('label.field-label.inline-label', {}, 'Tool '), toolSelect, callButton),
    h('label.field-label', {}, 'Arguments ', h('span.hint', {}, 'JSON, as the model would send them'), argsInput),
  );
  const controls = h('div.controls', {}, rulesButton, resetButton);

  // ---- the swarm and its session --------------------------------------------------------------
  function rebuild(user) {
    const text = definitionEditor.value;
    parsedDefinition = parseJSON(text);
    const problems = [];
    let next = null;
    if (!parsedDefinition.ok) {
      problems.push({ source: 'Swarm definition', message: `not valid JSON: ${parsedDefinition.message}`, start: parsedDefinition.offset, end: parsedDefinition.offset + 1 });
    } else {
      try {
        next = new Swarm(parsedDefinition.value);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        for (const p of error.problems) problems.push(locate({ source: 'Swarm definition', ...p }, parsedDefinition, text));
      }
    }
    for (const p of problems) if (p.line === undefined && p.start !== undefined) Object.assign(p, lineColumn(text, p.start));
    definitionEditor.setMarks(problems.filter((p) => p.start !== undefined).map((p) => ({ start: p.start, end: p.end, message: p.message })));
    renderProblems(errorBox, problems, { onSelect: (p) => definitionEditor.select(p.start, p.end) });
    if (next !== null) {
      swarm?.dispose();
      swarm = next;
      definitionValue = parsedDefinition.value;
      resetSession(false);
    } else {
      // The last swarm that loaded stays, greyed out, but nothing can be done with it.
      render();
    }
    onChange?.(user);
  }

  function readVariables() {
    const text = variablesEditor.value;
    parsedVariables = text.trim() === '' ? { ok: true, value: {} } : parseJSON(text);
    let problem = null;
    if (!parsedVariables.ok) problem = { message: `not valid JSON: ${parsedVariables.message}`, start: parsedVariables.offset };
    else if (parsedVariables.value === null || typeof parsedVariables.value !== 'object' || Array.isArray(parsedVariables.value)) {
      problem = { message: 'the variables must be a JSON object', start: 0 };
      parsedVariables = { ok: false };
    }
    variablesEditor.setMarks(problem ? [{ start: problem.start, end: problem.start + 1, message: problem.message }] : []);
    return problem;
  }

  /** The variables editor is the session's variables: an edit replaces them (rules wait for the button). */
  function setVariables(user) {
    const problem = readVariables();
    if (!problem && session) session.variables = structuredClone(parsedVariables.value);
    render(problem);
    onChange?.(user);
  }

  function resetSession(user) {
    const problem = readVariables();
    if (swarm !== null) session = swarm.createSession({ variables: problem ? {} : parsedVariables.value });
    history.length = 0;
    showOutcome(null);
    render(problem);
    if (user) onChange?.(user);
  }

  /** Writes the session's variables back to the editor (a handoff may have added some). */
  function syncVariables() {
    if (!session) return;
    const current = parsedVariables?.ok ? parsedVariables.value : undefined;
    if (JSON.stringify(current) === JSON.stringify(session.variables)) return;
    variablesEditor.value = formatState(session.variables);
    readVariables();
  }

  // ---- actions -------------------------------------------------------------------------------
  function usable() {
    return swarm !== null && session !== null && errorBox.hidden;
  }

  function rules() {
    if (!usable()) return;
    const outcomes = [];
    // As runTurn does: rules are applied until none holds (maxHops bounds it).
    for (let outcome = swarm.applyRules(session); outcome !== null && outcomes.length < 100; outcome = swarm.applyRules(session)) outcomes.push(outcome);
    history.push(...outcomes);
    showOutcome({ kind: 'rules', outcomes });
    syncVariables();
    render();
  }

  function call() {
    if (!usable() || toolSelect.value === '') return;
    const outcome = swarm.applyToolCall(session, { name: toolSelect.value, arguments: argsInput.value.trim() === '' ? {} : argsInput.value });
    if (outcome.type !== 'tool') history.push(outcome);
    showOutcome({ kind: 'call', outcome });
    syncVariables();
    render();
  }

  // ---- rendering -----------------------------------------------------------------------------
  const agentName = (id) => {
    const agent = Array.isArray(definitionValue?.agents) ? definitionValue.agents.find((a) => a?.id === id) : undefined;
    return agent?.name && agent.name !== id ? `${agent.name} (${id})` : id;
  };

  function describeOutcome(outcome) {
    const json = h('pre.outcome-json', {}, formatJSON(outcome));
    switch (outcome.type) {
      case 'handoff':
        return h(
          'div.outcome-item',
          { 'data-type': 'handoff' },
          h('div.outcome-line', {}, h('span.badge', {}, outcome.via === 'rule' ? 'handoff by rule' : 'handoff'), ' ', h('b', { testid: 'swarm-outcome-from' }, outcome.from), ' → ',
            h('b', { testid: 'swarm-outcome-to' }, outcome.to)),
          h('div.outcome-vars', {}, 'variables ', h('code', { testid: 'swarm-outcome-variables' }, compact(outcome.variables))),
          json,
        );
      case 'handoff_blocked':
        return h(
          'div.outcome-item',
          { 'data-type': 'handoff_blocked' },
          h('div.outcome-line', {}, h('span.badge.warn', {}, 'blocked'), ' ', h('b', {}, outcome.from), ' → ', h('b', {}, outcome.to), ' not yet'),
          h('div.reason', { testid: 'swarm-outcome-reason' }, outcome.rejectionReason),
          json,
        );
      case 'rejected':
        return h(
          'div.outcome-item',
          { 'data-type': 'rejected' },
          h('div.outcome-line', {}, h('span.badge.bad', {}, 'rejected')),
          h('div.reason', { testid: 'swarm-outcome-reason' }, outcome.reason),
          json,
        );
      default:
        return h('div.outcome-item', { 'data-type': outcome.type }, h('div.outcome-line', {}, h('span.badge', {}, outcome.type), ` the host runs tool '${outcome.tool}'`), json);
    }
  }

  function showOutcome(result) {
    if (result === null) {
      outcomeBox.dataset.type = 'none';
      outcomeBox.className = 'outcome';
      clear(outcomeBox, h('span.muted', {}, 'Apply the rules or make a tool call to see what it does.'));
      return;
    }
    if (result.kind === 'rules') {
      const last = result.outcomes.at(-1);
      outcomeBox.dataset.type = last ? 'handoff' : 'none';
      outcomeBox.className = `outcome ${last ? 'end' : ''}`;
      clear(
        outcomeBox,
        result.outcomes.length === 0
          ? h('span', {}, 'applyRules(session) → null: no rule edge of ', h('b', {}, session.active), ' holds.')
          : result.outcomes.map(describeOutcome),
      );
      return;
    }
    const { outcome } = result;
    outcomeBox.dataset.type = outcome.type;
    outcomeBox.className = `outcome ${{ handoff: 'end', handoff_blocked: 'max-steps', rejected: 'error' }[outcome.type] ?? ''}`;
    clear(outcomeBox, describeOutcome(outcome));
  }

  function prefillArguments() {
    // Every parameter of the chosen tool, with null: what a model that knows nothing yet would send.
    const name = toolSelect.value;
    const tool = swarm && session ? swarm.tools(session, 'openai-chat').find((t) => t.function?.name === name) : undefined;
    const properties = tool?.function?.parameters?.properties ?? {};
    argsInput.value = name ? JSON.stringify(Object.fromEntries(Object.keys(properties).map((k) => [k, null]))) : '';
  }

  function renderTools() {
    if (!swarm || !session) {
      toolsView.textContent = '';
      return;
    }
    toolsView.textContent = JSON.stringify(swarm.tools(session, formatSelect.value), null, 2);
  }

  function render(variablesProblem = null) {
    const ok = swarm !== null && session !== null;
    const stale = !errorBox.hidden;
    toolsView.classList.toggle('stale', stale);
    if (!ok) {
      clear(active, h('span.muted', {}, 'Fix the definition to start a session.'));
      toolsView.textContent = '';
      clear(toolSelect);
      for (const el of [callButton, rulesButton, resetButton, toolSelect]) el.disabled = true;
      return;
    }
    active.dataset.agent = session.active;
    clear(
      active,
      h('span.field-label.inline-label', {}, 'Active agent '),
      h('strong.winner-name', { testid: 'swarm-active-agent' }, session.active),
      agentName(session.active) !== session.active ? h('span.muted', {}, ` ${agentName(session.active).replace(/ \(.*\)$/, '')}`) : null,
      h('span.muted', {}, ` · hops ${session.hops} · selections ${compact(session.selections)}`),
      stale ? h('span.bad', {}, ' · the definition has problems: this is the last swarm that loaded') : null,
      variablesProblem ? h('span.bad', {}, ` · variables: ${variablesProblem.message}`) : null,
    );
    renderTools();
    const offered = swarm.offered(session);
    const previous = toolSelect.value;
    clear(
      toolSelect,
      offered.length === 0
        ? h('option', { value: '' }, `no tool offered to ${session.active} now`)
        : offered.map((o) => h('option', { value: o.name }, `${o.name}  → ${o.to}`)),
    );
    const keep = offered.some((o) => o.name === previous);
    if (keep) toolSelect.value = previous;
    else prefillArguments();
    for (const el of [rulesButton, resetButton]) el.disabled = stale;
    toolSelect.disabled = stale || offered.length === 0;
    callButton.disabled = stale || offered.length === 0;
    clear(
      log,
      history.length === 0
        ? h('li.muted', {}, 'No routing decisions yet in this session.')
        : history.map((o) =>
            h('li', { 'data-type': o.type }, o.type === 'handoff' ? `${o.via === 'rule' ? 'rule' : o.tool}: ${o.from} → ${o.to}` : o.type === 'handoff_blocked' ? `blocked: ${o.from} → ${o.to}` : `rejected: ${o.reason}`),
          ),
    );
  }

  showOutcome(null);

  return {
    sections: { definitionEditor, variablesEditor, errorBox, active, formatSelect, toolsView, callForm, controls, outcomeBox, log },
    /** @param {{ swarm?: unknown, variables?: unknown }} example */
    load({ swarm: definition, variables }) {
      definitionEditor.value = typeof definition === 'string' ? definition : formatJSON(definition);
      variablesEditor.value = variables === undefined ? '{}' : typeof variables === 'string' ? variables : formatState(variables);
      rebuild(false);
    },
    /** The swarm and session in use (null while the definition has problems), for the Conversation panel. */
    current() {
      return usable() ? { swarm, session } : { swarm: null, session: null };
    },
    /** Shows the session again after something else changed it (a turn of the Conversation panel). */
    refresh() {
      syncVariables();
      render();
    },
    /** What a share link keeps: parsed JSON where it parses, else the text as typed. */
    snapshot() {
      return {
        swarm: parsedDefinition?.ok ? parsedDefinition.value : definitionEditor.value,
        variables: parsedVariables?.ok && variablesEditor.value.trim() !== '' ? parsedVariables.value : variablesEditor.value,
      };
    },
  };
}
