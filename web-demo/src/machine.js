// Panel 3, State machine: a definition (StateMachine.fromJSON), scripted updates that stand in for
// the agents (per state: one update per visit, the last one repeating), an initial state; Run,
// Step and Reset drive an Execution and the trace grows step by step. check() runs on every valid
// definition: what it finds is listed below the editors, each finding at its place in the JSON.
import { DefinitionError, END, GraphValidationError, MaxStepsError, NoEdgeMatchedError, StateMachine, check } from 'handoff-graph';

import { clear, compact, h, sleep } from './dom.js';
import { createEditor } from './editor.js';
import { formatJSON, formatState } from './format.js';
import { lineColumn, parseJSON, pointerOf } from './jsonpos.js';
import { locate, renderProblems } from './problems.js';

const endName = (name) => (name === END ? 'END' : name);

export function createMachinePanel({ onChange }) {
  let machine = null;
  let exec = null;
  let failure = null;
  let lastDag = null;          // the picture of the last definition that loaded
  let blocked = true;          // problems that prevent running
  let updates = [];            // updates[step] = what the scripted handler returned
  let branchUpdates = [];      // branchUpdates[step][branch] = what a fan-out step's branch returned
  const parsed = { definition: null, scripts: null, state: null };
  let runToken = 0;
  let running = false;
  let pending = Promise.resolve();  // the step in flight, if any

  const definitionEditor = createEditor({
    testid: 'machine-editor',
    label: 'Machine definition',
    hint: 'JSON read by StateMachine.fromJSON',
    rows: 14,
    onInput: () => rebuild(true),
  });
  const scriptsEditor = createEditor({
    testid: 'scripts-editor',
    label: 'Scripted updates',
    hint: 'per state: a list of updates, one per visit (the last repeats), or one update for every visit',
    rows: 7,
    onInput: () => rebuild(true),
  });
  const stateEditor = createEditor({
    testid: 'machine-state-editor',
    label: 'Initial state',
    hint: 'JSON: the state the first step starts from',
    rows: 2,
    onInput: () => rebuild(true),
  });

  const runButton = h('button.primary', { type: 'button', testid: 'run', on: { click: () => run() } }, 'Run');
  const stepButton = h('button', { type: 'button', testid: 'step', on: { click: () => step() } }, 'Step');
  const resetButton = h('button', { type: 'button', testid: 'reset', on: { click: () => resetExecution(true) } }, 'Reset');
  const maxStepsInput = h('input.max-steps-input', {
    type: 'number',
    min: 1,
    max: 1000000,
    testid: 'max-steps',
    'aria-label': 'maxSteps',
    on: { input: () => setMaxSteps() },
  });
  const speed = h(
    'select',
    { testid: 'speed', 'aria-label': 'Run speed' },
    h('option', { value: '250' }, 'step by step (250 ms)'),
    h('option', { value: '800' }, 'slowly (800 ms)'),
    h('option', { value: '0' }, 'at once'),
  );
  const controls = h(
    'div.controls',
    {},
    runButton,
    stepButton,
    resetButton,
    h('label.inline', {}, 'maxSteps ', maxStepsInput),
    h('label.inline', {}, 'Run ', speed),
  );
  const errorBox = h('div.problems', { testid: 'machine-error', role: 'alert', hidden: true });
  const checkBox = h('div.check-report', { testid: 'machine-check', 'aria-live': 'polite' });
  const outcome = h('div.outcome', { testid: 'outcome', role: 'status', 'aria-live': 'polite' });
  const trace = h('ol.trace', { testid: 'trace', 'aria-label': 'Trace' });
  const stateLabel = h('div.field-label', {}, 'Initial state');
  const stateView = h('pre.state-view', { testid: 'machine-state' });

  const canRun = () => machine !== null && !blocked;
  const startState = () => (typeof parsed.definition?.value?.start === 'string' ? parsed.definition.value.start : null);
  const edgesOf = (state) =>
    Array.isArray(parsed.definition?.value?.edges) ? parsed.definition.value.edges.filter((e) => e?.from === state) : [];

  function handlerFor(name) {
    return (ctx) => {
      const script = parsed.scripts.value?.[name];
      const update = Array.isArray(script) ? script[Math.min(ctx.visit, script.length) - 1] : script;
      const copy = update === undefined ? null : structuredClone(update);
      // A fan-out's branches share its step: each keeps its own update, by branch.
      if (ctx.index === undefined) {
        updates[ctx.step] = copy;
      } else {
        branchUpdates[ctx.step] ??= [];
        branchUpdates[ctx.step][ctx.index] = copy;
      }
      return copy;
    };
  }

  /** Frees an execution and a machine once no step of theirs is running. */
  function retire(oldExec, oldMachine) {
    pending.finally(() => {
      oldExec?.dispose();
      oldMachine?.dispose();
    });
  }

  function resetExecution(user) {
    runToken++;
    running = false;
    retire(exec, null);
    exec = null;
    failure = null;
    updates = [];
    branchUpdates = [];
    render();
    onChange?.(user);
  }

  function rebuild(user) {
    runToken++;
    running = false;
    retire(exec, machine);
    exec = null;
    machine = null;
    failure = null;
    updates = [];
    blocked = false;

    const problems = [];
    const marks = { definition: [], scripts: [], state: [] };
    const add = (editor, p) => {
      problems.push({ ...p, editor });
      if (p.start !== undefined) marks[editor].push({ start: p.start, end: p.end, message: p.message });
    };
    const texts = { definition: definitionEditor.value, scripts: scriptsEditor.value, state: stateEditor.value };
    const sources = { definition: 'Machine definition', scripts: 'Scripted updates', state: 'Initial state' };
    for (const key of ['definition', 'scripts', 'state']) {
      const text = texts[key];
      parsed[key] = key !== 'definition' && text.trim() === '' ? { ok: true, value: {} } : parseJSON(text);
      if (!parsed[key].ok) {
        const { offset, message } = parsed[key];
        add(key, { source: sources[key], message: `not valid JSON: ${message}`, start: offset, end: offset + 1, ...lineColumn(text, offset) });
        blocked = true;
      }
    }
    if (parsed.scripts.ok && (parsed.scripts.value === null || typeof parsed.scripts.value !== 'object' || Array.isArray(parsed.scripts.value))) {
      add('scripts', locate({ source: sources.scripts, pointer: '', message: 'must be an object: { "state name": [update, …] }' }, parsed.scripts, texts.scripts));
      blocked = true;
    }
    if (parsed.state.ok && (parsed.state.value === null || typeof parsed.state.value !== 'object' || Array.isArray(parsed.state.value))) {
      add('state', locate({ source: sources.state, pointer: '', message: 'the initial state must be an object' }, parsed.state, texts.state));
      blocked = true;
    }

    if (parsed.definition.ok) {
      const definition = parsed.definition.value;
      const names = Array.isArray(definition?.states) ? definition.states.map((s) => s?.name).filter((n) => typeof n === 'string') : [];
      /** @type {Record<string, (ctx: any) => any>} */
      const handlers = {};
      for (const name of names) handlers[name] = handlerFor(name);
      if (parsed.scripts.ok && parsed.scripts.value && typeof parsed.scripts.value === 'object') {
        for (const key of Object.keys(parsed.scripts.value)) {
          if (!names.includes(key)) {
            add('scripts', { ...locate({ source: sources.scripts, pointer: pointerOf(key), message: `no state '${key}' in the definition: this script is never used` }, parsed.scripts, texts.scripts), severity: 'warning' });
          }
        }
      }
      try {
        machine = StateMachine.fromJSON(definition, { handlers });
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        for (const p of error.problems) add('definition', locate({ source: sources.definition, ...p }, parsed.definition, texts.definition));
        blocked = true;
      }
      if (machine) {
        lastDag = machine.toDag();
        try {
          machine.validate();
        } catch (error) {
          if (!(error instanceof GraphValidationError)) throw error;
          // The core's pointers are into machine.toJSON(), whose states and edges are the
          // definition's, in its order (fromJSON loaded every one of them).
          for (const p of error.problems) {
            const pointer = p.pointer === '' ? undefined : p.pointer;
            add('definition', locate({ source: sources.definition, pointer, message: `${p.code}: ${p.message}` }, parsed.definition, texts.definition));
          }
          blocked = true;
        }
      }
      const maxSteps = definition?.maxSteps;
      if (document.activeElement !== maxStepsInput) maxStepsInput.value = typeof maxSteps === 'number' ? String(maxSteps) : '';
      maxStepsInput.placeholder = '50';
    }
    definitionEditor.setMarks(marks.definition);
    scriptsEditor.setMarks(marks.scripts);
    stateEditor.setMarks(marks.state);
    const editors = { definition: definitionEditor, scripts: scriptsEditor, state: stateEditor };
    renderProblems(errorBox, problems, { onSelect: (p) => editors[p.editor].select(p.start, p.end) });
    renderCheck(machine !== null && !blocked ? check(machine) : null);
    render();
    onChange?.(user);
  }

  function setMaxSteps() {
    if (!parsed.definition?.ok || parsed.definition.value === null || typeof parsed.definition.value !== 'object') return;
    const definition = structuredClone(parsed.definition.value);
    const value = maxStepsInput.value.trim();
    if (value === '') delete definition.maxSteps;
    else definition.maxSteps = Number(value);
    definitionEditor.value = formatJSON(definition);
    rebuild(true);
  }

  /** Runs one step; resolves whether the execution can go on. */
  async function stepOnce() {
    if (!canRun() || failure !== null) return false;
    if (exec === null) {
      try {
        exec = machine.start(structuredClone(parsed.state.value));
      } catch (error) {
        failure = error;
        render();
        return false;
      }
    }
    const mine = exec;
    if (mine.done) return false;
    const stepping = mine.step().then(
      () => null,
      (error) => error,
    );
    pending = stepping;
    const error = await stepping;
    if (mine !== exec) return false;  // reset or rebuilt meanwhile
    if (error) failure = error;
    render();
    onChange?.(true);
    return !mine.done && failure === null;
  }

  async function step() {
    if (running) return;
    await stepOnce();
  }

  async function run() {
    if (!canRun()) return;
    if (exec?.done || failure !== null) resetExecution(true);
    const token = ++runToken;
    running = true;
    renderControls();
    try {
      while (token === runToken && (await stepOnce())) {
        const delay = Number(speed.value);
        if (delay > 0) await sleep(delay);
      }
    } finally {
      if (token === runToken) {
        running = false;
        renderControls();
      }
    }
  }

  function renderControls() {
    const finished = exec?.done || failure !== null;
    runButton.disabled = !canRun() || running;
    stepButton.disabled = !canRun() || running || finished;
    runButton.textContent = finished ? 'Run again' : exec ? 'Run to the end' : 'Run';
    resetButton.disabled = exec === null && failure === null && !running;
  }

  function lastStep() {
    const steps = exec?.steps ?? [];
    return steps[steps.length - 1] ?? null;
  }

  function renderOutcome() {
    const set = (reason, ...children) => {
      outcome.dataset.reason = reason;
      outcome.className = `outcome ${reason}`;
      clear(outcome, children);
    };
    const n = exec?.stepsRun ?? 0;
    const s = (k) => `${k} step${k === 1 ? '' : 's'}`;
    const max = machine?.toJSON().maxSteps;
    if (!canRun()) return set('invalid', h('strong', {}, 'Not runnable. '), 'Fix the problems listed above.');
    if (failure instanceof NoEdgeMatchedError) {
      const read = Object.entries(failure.read ?? {});
      return set(
        'no-edge-matched',
        h('strong', {}, '✕ No edge matched. '),
        `On step ${failure.steps?.length ?? n}, none of the outgoing edges of '${failure.stateName}' held, so the run failed with NoEdgeMatchedError.`,
        h('ul.candidates', {}, failure.candidates.map((c) => h('li', {}, '→ ', h('b', {}, endName(c.to)), ' when ', c.when === null ? h('i', {}, 'always') : h('code', {}, c.when)))),
        read.length ? h('div', {}, 'The state read: ', read.map(([k, v], i) => [i ? ', ' : '', h('code', {}, `${k} = ${v}`)])) : null,
      );
    }
    if (failure instanceof MaxStepsError) {
      return set('max-steps', h('strong', {}, '⚠ maxSteps reached. '), `The run stopped after ${s(failure.run.stepsRun)} without reaching END (onMaxSteps: 'throw'): ${failure.message}`);
    }
    if (failure !== null) {
      return set('error', h('strong', {}, '✕ The run failed. '), `${failure.name}: ${failure.message}`);
    }
    if (exec === null) return set('ready', h('strong', {}, 'Ready. '), `Step runs the start state '${startState()}'; Run goes to the end.`);
    const last = lastStep();
    if (exec.reason === 'end') return set('end', h('strong', {}, '✓ Reached END '), `after ${s(n)}.`);
    if (exec.reason === 'max-steps') {
      return set(
        'max-steps',
        h('strong', {}, '⚠ Stopped at maxSteps. '),
        `${s(n)} ran (maxSteps is ${max}) without reaching END; the next state would have been '${endName(last?.next)}'. `,
        'Raise maxSteps, or bound the loop in a condition such as ',
        h('code', {}, `$visits.${last?.state ?? 'state'} < 3`),
        '.',
      );
    }
    if (exec.reason === 'aborted') return set('aborted', h('strong', {}, 'Aborted '), `after ${s(n)}.`);
    if (last === null) return set('ready', h('strong', {}, 'Ready. '), `Step runs the start state '${startState()}'.`);
    return set('running', h('strong', {}, `After step ${last.step}: `), `next is '${endName(last.next)}'.`);
  }

  function renderTrace() {
    const steps = failure instanceof NoEdgeMatchedError ? failure.steps : exec?.steps ?? [];
    const items = steps.map((s) => {
      const edge = s.edge === null ? null : edgesOf(s.state)[s.edge];
      const update = updates[s.step];
      return h(
        'li.trace-step',
        { 'data-step': s.step, 'data-state': s.state, 'data-next': s.next ?? '', class: s.next === null ? 'failed' : s.next === END ? 'end' : '' },
        h('span.step-no', { title: `step ${s.step}` }, String(s.step)),
        h(
          'div.step-main',
          {},
          h(
            'div.step-line',
            {},
            h('b', {}, s.state),
            h('span.visit', {}, `visit ${s.visit}`),
            h('span.arrow', {}, '→'),
            s.next === null ? h('span.bad', {}, 'no edge matched') : h('b', { class: s.next === END ? 'end-name' : '' }, endName(s.next)),
          ),
          edge !== null && edge !== undefined
            ? h('div.step-via', {}, `edge #${s.edge} `, edge.when == null ? h('i', {}, 'always') : h('code', {}, edge.when))
            : null,
          update !== undefined ? h('div.step-update', {}, 'update ', h('code', {}, update === null ? 'nothing' : compact(update))) : null,
          s.branches === undefined
            ? null
            : h('div.step-branches', { testid: 'branches' }, ...s.branches.map((b, i) => {
              const out = branchUpdates[s.step]?.[i];
              return h('div.branch', { 'data-state': b.state, 'data-visit': b.visit },
                h('b', {}, b.state), h('span.visit', {}, `visit ${b.visit}`),
                out === undefined ? null : h('div.step-update', {}, h('code', {}, out === null ? 'nothing' : compact(out))));
            })),
        ),
      );
    });
    if (failure !== null && !(failure instanceof NoEdgeMatchedError) && !(failure instanceof MaxStepsError) && exec) {
      const last = lastStep();
      const state = last ? last.next : startState();
      items.push(h('li.trace-step.failed', { 'data-step': (last?.step ?? 0) + 1, 'data-state': state ?? '' }, h('span.step-no', {}, String((last?.step ?? 0) + 1)),
        h('div.step-main', {}, h('div.step-line', {}, h('b', {}, String(state)), h('span.bad', {}, 'failed: ', failure.message)))));
    }
    if (items.length === 0) items.push(h('li.trace-empty.muted', {}, 'No steps yet: press Step or Run.'));
    clear(trace, items);
    trace.dataset.steps = String(steps.length);
    const shown = exec ? exec.state : parsed.state?.ok ? parsed.state.value : null;
    stateView.textContent = shown === null ? '' : formatJSON(shown, 72);
    stateLabel.textContent = exec ? `State after step ${exec.stepsRun}` : 'State before the first step';
  }

  // check()'s findings, each at its place in the definition: a gap shows the state that falls
  // through (the run then throws NoEdgeMatchedError), a state without a way to END is an error.
  function renderCheck(report) {
    if (report === null) {
      clear(checkBox, h('p.muted', {}, 'check() runs once the definition loads and validates.'));
      return;
    }
    const items = report.findings.map((f) => {
      const located = locate({ source: 'check()', pointer: f.pointer, message: f.message }, parsed.definition, definitionEditor.value);
      return h(
        `div.edge-finding.${f.severity}`,
        {
          testid: 'machine-finding',
          'data-code': f.code,
          'data-pointer': f.pointer,
          class: located.start !== undefined ? 'clickable' : '',
          on: { click: () => located.start !== undefined && definitionEditor.select(located.start, located.end) },
        },
        h('b', {}, f.code),
        ' ',
        h('code.pointer', {}, f.pointer),
        ' ',
        f.message,
      );
    });
    const count = report.findings.length;
    const errors = report.findings.filter((f) => f.severity === 'error').length;
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    clear(
      checkBox,
      h('p', { class: count === 0 ? 'check-ok' : 'check-summary', testid: 'machine-check-summary' },
        count === 0 ? 'check(): no findings' : `check(): ${plural(count, 'finding')}${errors ? ` (${plural(errors, 'error')})` : ''}`),
      items,
    );
  }

  function render() {
    renderControls();
    renderOutcome();
    renderTrace();
  }

  return {
    sections: { definitionEditor, scriptsEditor, stateEditor, controls, errorBox, checkBox, outcome, trace, stateLabel, stateView },
    /** @param {{ machine?: unknown, scripts?: unknown, state?: unknown }} example */
    load({ machine: definition, scripts, state }) {
      definitionEditor.value = typeof definition === 'string' ? definition : formatJSON(definition);
      scriptsEditor.value = scripts === undefined ? '{}' : typeof scripts === 'string' ? scripts : formatJSON(scripts);
      stateEditor.value = state === undefined ? '{}' : typeof state === 'string' ? state : formatState(state);
      rebuild(false);
    },
    snapshot() {
      const keep = (p, text) => (p?.ok ? p.value : text);
      return {
        machine: keep(parsed.definition, definitionEditor.value),
        scripts: keep(parsed.scripts, scriptsEditor.value),
        state: keep(parsed.state, stateEditor.value),
      };
    },
    get machine() {
      return machine;
    },
    get name() {
      return machine?.name ?? parsed.definition?.value?.name ?? 'machine';
    },
    /** The picture: the machine, with the execution's fired edges and visits once it ran. */
    dag() {
      if (exec) {
        try {
          return exec.toDag();
        } catch {
          return machine.toDag({ highlight: { steps: exec.steps } });
        }
      }
      return machine ? machine.toDag() : lastDag;
    },
    stale: () => machine === null,
    /** The state to ring in the picture: the one that runs next, or the last one run. */
    current() {
      if (!exec) return startState();
      const last = lastStep();
      if (last === null) return startState();
      if (exec.done || failure !== null) return last.next === END ? END : last.state;
      return last.next;
    },
    /** Whether the run failed (no edge matched, a handler error): the current state is where. */
    failed: () => failure !== null && !(failure instanceof MaxStepsError),
    exportOptions() {
      return exec ? { highlight: { steps: exec.steps } } : {};
    },
  };
}
