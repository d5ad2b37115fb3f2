/**
 * Linear streaming (issue 13): a streamed 400 KB call whose text ends in `}` but does not
 * parse, followed by 3,000 fragments of a later call, against the same stream whose first
 * call parses. Prints the median time of each and their ratio (the goal is ≤ 1.5×).
 *
 *   pnpm --filter @mtpx/bench exec tsx scripts/linear-streaming.ts
 */
import { ToolCallAccumulator } from '@mtpx/providers';

const fragments = 3_000;

function feed(firstCallText: string): number {
  const accumulator = new ToolCallAccumulator({ provider: 'bench', readiness: 'next-call-or-end' });
  const started = performance.now();
  // The big call arrives in 4 KB pieces, then a second call in 3,000 small fragments.
  for (let offset = 0; offset < firstCallText.length; offset += 4096) {
    accumulator.push({
      index: 0,
      ...(offset === 0 ? { id: 'call_big', name: 'write' } : {}),
      argumentsDelta: firstCallText.slice(offset, offset + 4096),
    });
  }
  accumulator.push({ index: 1, id: 'call_next', name: 'lookup', argumentsDelta: '{"items":[' });
  for (let fragment = 0; fragment < fragments; fragment++) {
    accumulator.push({ index: 1, argumentsDelta: `${fragment === 0 ? '' : ','}${fragment}` });
  }
  accumulator.push({ index: 1, argumentsDelta: ']}' });
  accumulator.completeAll();
  return performance.now() - started;
}

const body = 'x'.repeat(400 * 1024);
const parses = `{"text":"${body}"}`;
const unparsable = `{"text":"${body}",}`; // ends in `}`, but a trailing comma: never parses

function median(run: () => number, times: number): number {
  const samples = Array.from({ length: times }, run).sort((left, right) => left - right);
  return samples[Math.floor(times / 2)] as number;
}

feed(parses);
feed(unparsable); // warm up
const parsing = median(() => feed(parses), 9);
const failing = median(() => feed(unparsable), 9);
console.log(`400 KB call that parses, then ${fragments} fragments: ${parsing.toFixed(1)} ms`);
console.log(`400 KB call that never parses, then ${fragments} fragments: ${failing.toFixed(1)} ms`);
console.log(`ratio: ${(failing / parsing).toFixed(2)}× (goal ≤ 1.5×)`);
