// Timing utilities for the Node benchmarks: every engine of a case runs in the same process,
// interleaved repetition by repetition, after a warm-up, and is reported as the median ns/op with
// its min-max range. Results are checked for agreement before anything is timed.
import os from 'node:os';

/** Runs `fn(i)` `iterations` times; returns ns per call. */
function timeOnce(fn, iterations) {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if (fn(i) !== null) sink++;
  const ns = Number(process.hrtime.bigint() - start);
  if (sink === -1) console.log('unreachable');
  return ns / iterations;
}

/** Warm-up (JIT, caches): 2,000 calls, or fewer if they would take more than `maxMs`. */
function warmUp(fn, maxMs = 200) {
  let done = 0;
  const until = performance.now() + maxMs;
  for (let batch = 1; done < 2000 && performance.now() < until; batch = Math.min(batch * 2, 2000 - done)) {
    timeOnce(fn, batch);
    done += batch;
  }
}

async function warmUpAsync(fn, maxMs = 200) {
  let done = 0;
  const until = performance.now() + maxMs;
  for (let batch = 1; done < 500 && performance.now() < until; batch = Math.min(batch * 2, 500 - done)) {
    await timeOnceAsync(fn, batch);
    done += batch;
  }
}

/** Picks an iteration count that makes one repetition last about `targetMs`. */
function calibrate(fn, targetMs) {
  let iterations = 1;
  for (;;) {
    const ns = timeOnce(fn, iterations) * iterations;
    if (ns > targetMs * 1e6 / 4 || iterations >= 1 << 26) return Math.max(1, Math.round((iterations * targetMs * 1e6) / ns));
    iterations *= 4;
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * engines: [{ name, run: (i) => result }]. The first engine is "ours" (ratios are to it).
 * Returns [{ engine, median, min, max, ratio, iterations }].
 */
export function measure(engines, { repetitions = 7, targetMs = 150 } = {}) {
  const plans = engines.map((engine) => {
    warmUp(engine.run);
    return { engine, iterations: calibrate(engine.run, targetMs), samples: [] };
  });
  for (let r = 0; r < repetitions; r++) {
    for (const plan of plans) plan.samples.push(timeOnce(plan.engine.run, plan.iterations));
  }
  const ours = median(plans[0].samples);
  return plans.map(({ engine, samples, iterations }) => ({
    engine: engine.name,
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    ratio: median(samples) / ours,
    iterations,
  }));
}

/** Like timeOnce, for an engine whose `fn(i)` returns a promise: each call is awaited in turn. */
async function timeOnceAsync(fn, iterations) {
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) if ((await fn(i)) !== null) sink++;
  const ns = Number(process.hrtime.bigint() - start);
  if (sink === -1) console.log('unreachable');
  return ns / iterations;
}

async function calibrateAsync(fn, targetMs) {
  let iterations = 1;
  for (;;) {
    const ns = (await timeOnceAsync(fn, iterations)) * iterations;
    if (ns > targetMs * 1e6 / 4 || iterations >= 1 << 26) return Math.max(1, Math.round((iterations * targetMs * 1e6) / ns));
    iterations *= 4;
  }
}

/**
 * `measure` for a mix of synchronous engines and engines marked `async: true` (whose `run(i)`
 * returns a promise that is awaited before the next call). Every engine is warmed up and
 * calibrated, then the repetitions are interleaved, starting from a different engine each
 * repetition. Resolves the same rows as `measure`.
 */
export async function measureAll(engines, { repetitions = 7, targetMs = 150 } = {}) {
  const plans = [];
  for (const engine of engines) {
    const iterations = engine.async
      ? (await warmUpAsync(engine.run), await calibrateAsync(engine.run, targetMs))
      : (warmUp(engine.run), calibrate(engine.run, targetMs));
    plans.push({ engine, iterations, samples: [] });
  }
  for (let r = 0; r < repetitions; r++) {
    for (let k = 0; k < plans.length; k++) {
      const plan = plans[(r + k) % plans.length];
      plan.samples.push(plan.engine.async
        ? await timeOnceAsync(plan.engine.run, plan.iterations)
        : timeOnce(plan.engine.run, plan.iterations));
    }
  }
  const ours = median(plans[0].samples);
  return plans.map(({ engine, samples, iterations }) => ({
    engine: engine.name,
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    ratio: median(samples) / ours,
    iterations,
  }));
}

export function machine() {
  const cpus = os.cpus();
  return { cpu: cpus[0]?.model ?? 'unknown', cores: cpus.length, node: process.version, platform: `${os.platform()} ${os.arch()}` };
}

const fmt = (ns) => (ns >= 1e6 ? `${(ns / 1e6).toFixed(2)} ms` : ns >= 1e4 ? `${(ns / 1e3).toFixed(1)} µs` : `${ns.toFixed(1)} ns`);

export function printTable(title, rows) {
  console.log(`\n${title}`);
  console.log(`  ${'engine'.padEnd(46)} ${'median'.padStart(10)} ${'min-max'.padStart(22)} ${'vs ours'.padStart(9)}`);
  for (const r of rows) {
    const range = `${fmt(r.min)}-${fmt(r.max)}`;
    console.log(`  ${r.engine.padEnd(46)} ${fmt(r.median).padStart(10)} ${range.padStart(22)} ${(r.ratio.toFixed(2) + '×').padStart(9)}`);
  }
}
