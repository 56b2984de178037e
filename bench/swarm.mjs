// `npm run bench`: a swarm turn's overhead without the model, in handoff-graph, OpenAI Agents JS and
// LangGraph.js (langgraph-swarm), every engine with the same scripted model that answers at once
// (bench/swarm-engines.mjs, which also describes the cases: an answer turn, a turn with one handoff
// the model decides, a turn whose handoff a rule edge decides). So a turn's time is the engine's
// own work: sessions or run state, messages, tool offers, the handoff, events.
//
// One turn = one fresh conversation's first turn, run to its end. Per case, the engines run in this
// process, interleaved repetition by repetition (starting from a different engine each time) after a
// warm-up; a result is the median and min-max over repetitions of (time of a batch of turns, awaited
// one after the other) / turns, in wall time and in this process's CPU time (user + system, which
// other processes on a busy machine disturb less; it includes the garbage collector's threads).
// Before anything is timed, every engine runs every case and must give the same answer, from the
// same agent, after the same number of model calls.
// Usage: node bench/swarm.mjs [--json results.json] [--quick]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';

import { init } from 'handoff-graph';

import { machine as host } from './harness.mjs';
import { CASES, checkEngine, ENGINES, RULE_NOTES } from './swarm-engines.mjs';

const args = process.argv.slice(2);
const jsonOut = args.includes('--json') ? args[args.indexOf('--json') + 1] : null;
const quick = args.includes('--quick');
const options = quick
  ? { repetitions: 3, targetMs: 20, warmupMs: 50, warmupTurns: 3 }
  : { repetitions: 11, targetMs: 200, warmupMs: 600, warmupTurns: 20 };

await init();

const engines = Object.entries(ENGINES).map(([name, make]) => ({ name, turn: make() }));
for (const engine of engines) await checkEngine(engine.name, engine.turn);

/** Awaits `turns` turns of one case in turn; returns wall and CPU ns per turn. */
async function timeTurns(turn, c, turns) {
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < turns; i++) await turn(c);
  const wall = Number(process.hrtime.bigint() - start);
  const used = process.cpuUsage(cpu);
  return { wall: wall / turns, cpu: ((used.user + used.system) * 1000) / turns };
}

async function warmUpAndCalibrate(turn, c) {
  const until = performance.now() + options.warmupMs;
  for (let runs = 0; runs < options.warmupTurns || performance.now() < until; runs++) await turn(c);
  for (let batch = 1; ; batch *= 4) {
    const { wall } = await timeTurns(turn, c, batch);
    if (wall * batch > (options.targetMs * 1e6) / 4 || batch >= 1 << 20) return Math.max(1, Math.round((options.targetMs * 1e6) / wall));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (ns) => `${(ns / 1000).toFixed(ns >= 1e5 ? 0 : 1)} µs`;

const loadBefore = loadavg()[0].toFixed(2);
const cases = [];
for (const c of CASES) {
  const plans = [];
  for (const engine of engines) plans.push({ engine, turns: await warmUpAndCalibrate(engine.turn, c), wall: [], cpu: [] });
  for (let r = 0; r < options.repetitions; r++) {
    for (let k = 0; k < plans.length; k++) {
      const plan = plans[(r + k) % plans.length];
      const { wall, cpu } = await timeTurns(plan.engine.turn, c, plan.turns);
      plan.wall.push(wall);
      plan.cpu.push(cpu);
    }
  }
  const ours = { wall: median(plans[0].wall), cpu: median(plans[0].cpu) };
  const rows = plans.map(({ engine, turns, wall, cpu }) => ({
    engine: engine.name,
    median: median(wall),
    min: Math.min(...wall),
    max: Math.max(...wall),
    ratio: median(wall) / ours.wall,
    cpuMedian: median(cpu),
    cpuMin: Math.min(...cpu),
    cpuMax: Math.max(...cpu),
    cpuRatio: median(cpu) / ours.cpu,
    turnsPerRepetition: turns,
  }));
  cases.push({ id: c.id, name: c.name, modelCalls: c.modelCalls, rows });

  console.log(`\nswarm turn, ${c.name}: per turn, wall time and CPU time (median, min-max)`);
  for (const r of rows) {
    console.log(`  ${r.engine.padEnd(32)} ${us(r.median).padStart(10)} ${`${us(r.min)}-${us(r.max)}`.padStart(22)} ${`${r.ratio.toFixed(2)}×`.padStart(7)}` +
      `   CPU ${us(r.cpuMedian).padStart(10)} ${`${us(r.cpuMin)}-${us(r.cpuMax)}`.padStart(22)} ${`${r.cpuRatio.toFixed(2)}×`.padStart(7)}`);
  }
}
const uptime = { before: loadBefore, after: loadavg()[0].toFixed(2) };
console.log(`\nrule case: ${Object.entries(RULE_NOTES).map(([e, n]) => `${e}: ${n}`).join('; ')}`);
console.log(`load average (1 min): ${uptime.before} before, ${uptime.after} after`);

if (jsonOut !== null) {
  const version = (pkg) => JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
  const versions = Object.fromEntries(['@openai/agents', '@langchain/langgraph', '@langchain/langgraph-swarm', '@langchain/core'].map((p) => [p, version(p)]));
  const results = existsSync(jsonOut) ? JSON.parse(readFileSync(jsonOut, 'utf8')) : {};
  results.swarm = { unit: 'ns per turn', options, uptime, host: host(), versions, ruleNotes: RULE_NOTES, cases };
  writeFileSync(jsonOut, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${jsonOut} (key 'swarm')`);
}
