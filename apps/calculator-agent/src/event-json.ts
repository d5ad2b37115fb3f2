import type { AgentEvent } from '@mtpx/agent';
import { findRefs, type Usage } from '@mtpx/protocol';

/** Keys whose numbers are times or durations in milliseconds: `at`, `executorAt`, `durationMs`. */
const TIME_KEY = /^(at|[a-z]+At|[a-zA-Z]+Ms)$/;

/** A time in milliseconds to a tenth of one: `256.1719579999999` → `256.2`. */
function roundTime(milliseconds: number): number {
  return Math.round(milliseconds * 10) / 10;
}

/** Usage with every count 0 is a provider that reported none: unknown, so `null`. */
function knownUsage(usage: Usage): Usage | null {
  return usage.inputTokens === 0 && usage.outputTokens === 0 && usage.totalTokens === 0
    ? null
    : usage;
}

function isUsage(value: unknown): value is Usage {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Usage).inputTokens === 'number' &&
    typeof (value as Usage).outputTokens === 'number' &&
    typeof (value as Usage).totalTokens === 'number'
  );
}

/** Every call id a call depends on: its explicit `depends_on` and each `$ref` of its arguments. */
export function dependencyEdges(call: {
  depends_on?: readonly string[];
  arguments: unknown;
}): string[] {
  return [...new Set([...(call.depends_on ?? []), ...findRefs(call.arguments)])];
}

/**
 * `tool-call-ready` for JSON: `toolCall` as the model wrote it, with `depends_on` the
 * graph's edges (explicit ones and `$ref`s alike); `call` only when the executed call
 * differs (an alias rewritten), and then with its own edges.
 */
function readyEventForJson(event: Extract<AgentEvent, { type: 'tool-call-ready' }>): object {
  const { call, toolCall, ...rest } = event;
  const same = call === toolCall || JSON.stringify(call) === JSON.stringify(toolCall);
  return {
    ...rest,
    toolCall: { ...toolCall, depends_on: dependencyEdges(toolCall) },
    ...(same ? {} : { call: { ...call, depends_on: dependencyEdges(call) } }),
  };
}

/**
 * An event as one JSON line (`--json`): errors keep their name, code and message; times
 * and durations are rounded to 0.1 ms; usage a provider did not report is `null`, not
 * zeros; `tool-call-ready` carries each call once, with its dependencies.
 */
export function eventJson(event: AgentEvent): string {
  const shown = event.type === 'tool-call-ready' ? readyEventForJson(event) : event;
  return JSON.stringify(shown, (key, value: unknown) => {
    if (value instanceof Error)
      return {
        name: value.name,
        message: value.message,
        ...('code' in value ? { code: value.code } : {}),
      };
    if (typeof value === 'number' && TIME_KEY.test(key)) return roundTime(value);
    if (key === 'usage' && isUsage(value)) return knownUsage(value);
    return value;
  });
}
