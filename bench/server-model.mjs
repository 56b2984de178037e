// The scripted model of bench/server.mjs: waits BENCH_MODEL_DELAY_MS per call and says how long it
// really waited (timers run late under load), so that the benchmark can subtract exactly the
// model's time. Input 'answer': one call, answered in text. Input 'handoff': the active agent
// calls its transfer tool (the time goes in the call's id), and the new agent answers in text.
const DELAY = Number(process.env.BENCH_MODEL_DELAY_MS ?? 10);

export default async function model({ messages, tools }) {
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, DELAY));
  const took = `model-ms=${(performance.now() - started).toFixed(3)}`;
  const input = messages.findLast((m) => m.role === 'user').content;
  if (input === 'handoff' && messages.at(-1).role === 'user') {
    return { toolCalls: [{ id: took, name: tools.find((t) => t.function.name.startsWith('transfer_to_')).function.name, arguments: {} }] };
  }
  return { text: took };
}
