import { ExecutorError } from '../errors';
import type { Tool } from './define-tool';

/** Any tool, whatever its arguments type (what registries and executors hold). */
export type AnyTool = Tool<never>;

/**
 * A named group of tools, loaded on first use: its tools are all named
 * `<name>.<action>` (`calculator.add`), and a registry calls `load` only when a call (or
 * a listing) first needs one of them. `load` may be async (a dynamic `import()`, a
 * connection to a server).
 */
export interface Toolkit {
  /** The prefix of every tool in the kit, without the dot (`calculator`). */
  readonly name: string;
  /** What the kit is for. */
  readonly description?: string;
  /** Makes the kit's tools; called at most once per registry unless it fails. */
  load(): readonly AnyTool[] | Promise<readonly AnyTool[]>;
}

/**
 * Defines a {@link Toolkit}. The name must be non-empty and dot-free.
 *
 * @example
 * ```ts source="./toolkit.examples.ts#defineToolkit"
 * const weather = defineToolkit({
 *   name: 'weather',
 *   description: 'Forecasts',
 *   load: loadWeatherTools, // e.g. async () => (await import('./weather-tools.js')).tools
 * });
 * ```
 */
export function defineToolkit(toolkit: Toolkit): Toolkit {
  if (typeof toolkit?.name !== 'string' || toolkit.name === '' || toolkit.name.includes('.')) {
    throw new ExecutorError({
      code: 'invalid_tool',
      message: `A toolkit needs a non-empty name without dots (its tools are named "<name>.<action>"), got ${JSON.stringify(toolkit?.name)}.`,
    });
  }
  if (typeof toolkit.load !== 'function') {
    throw new ExecutorError({
      code: 'invalid_tool',
      message: `Toolkit "${toolkit.name}" needs a \`load\` function.`,
    });
  }
  return toolkit;
}

/** True for toolkits (they have `load`, tools have `execute`). */
export function isToolkit(value: AnyTool | Toolkit): value is Toolkit {
  return typeof (value as Toolkit).load === 'function' && !('execute' in value);
}

/** The toolkit prefix of a tool name: the text before its first dot, or `undefined`. */
export function toolkitPrefix(name: string): string | undefined {
  const dot = name.indexOf('.');
  return dot > 0 ? name.slice(0, dot) : undefined;
}
