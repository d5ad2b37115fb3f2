import type { ToolCallInput } from '../tool-call';

/** A call of a generic tool, `tool.run`, with its arguments and `depends_on`. */
export const call = (id: string, args: Record<string, unknown> = {}, dependsOn?: string[]) =>
  ({
    id,
    name: 'tool.run',
    arguments: args,
    ...(dependsOn ? { depends_on: dependsOn } : {}),
  }) as ToolCallInput;

/** A reference to `id`'s output, optionally with a `$path` into it. */
export const ref = (id: string, path?: string) =>
  path === undefined ? { $ref: id } : { $ref: id, $path: path };
