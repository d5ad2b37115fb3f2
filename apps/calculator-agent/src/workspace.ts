import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type AnyTool, defineToolkit, type Executor, type Toolkit } from '@mtpx/executor';
import { calculatorToolkit, fileToolkit } from '@mtpx/executor/toolkits';
import { WORKSPACE_FILES } from './scenario';

/** A temporary folder the file tools are confined to. */
export interface Workspace {
  root: string;
  remove(): Promise<void>;
}

/** Makes the temporary folder and writes the scenario's files into it. */
export async function createWorkspace(): Promise<Workspace> {
  const root = await mkdtemp(join(tmpdir(), 'calculator-agent-'));
  for (const [path, content] of Object.entries(WORKSPACE_FILES)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * `toolkit` with every tool answering after `milliseconds` more, as a remote service
 * would, so the timeline has something to draw. The wait honours the call's signal.
 */
export function withLatency(toolkit: Toolkit, milliseconds: number): Toolkit {
  if (milliseconds <= 0) return toolkit;
  return defineToolkit({
    name: toolkit.name,
    ...(toolkit.description === undefined ? {} : { description: toolkit.description }),
    load: async () =>
      (await toolkit.load()).map(
        (tool): AnyTool => ({
          ...tool,
          execute: async (args, context) => {
            await delay(milliseconds, undefined, { signal: context.signal });
            return tool.execute(args, context);
          },
        }),
      ),
  });
}

/** The agent's tools: the calculator, and the file tools confined to `root`. */
export function agentTools(root: string, latencyMs: number): Toolkit[] {
  return [
    withLatency(calculatorToolkit(), latencyMs),
    withLatency(fileToolkit({ root }), latencyMs),
  ];
}

/**
 * Runs one read-only call of each toolkit on `executor` before the run, so the first call
 * the timeline shows does not absorb the one-time costs — loading the toolkits, the
 * executor's first schema compile, Node warming up its code — and takes as long as the
 * calls after it. The warm-up's results are not cached.
 */
export async function warmUpTools(executor: Executor): Promise<void> {
  await executor.executeToolCalls([
    { id: 'warm_1', name: 'calculator.add', arguments: { a: 0, b: 0 } },
    { id: 'warm_2', name: 'file.list_files', arguments: {} },
  ]);
}
