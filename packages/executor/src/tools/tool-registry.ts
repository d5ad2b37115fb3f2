import type { ToolSpec } from '@mtpx/protocol';
import { isPromiseLike } from '../call/promise-like';
import { ExecutorError, errorMessage } from '../errors';
import { toolSpecOf } from './define-tool';
import { type AnyTool, isToolkit, type Toolkit, toolkitPrefix } from './toolkit';

interface ToolkitEntry {
  toolkit: Toolkit;
  /** Set while an async `load` runs. */
  loading: Promise<void> | undefined;
  loaded: boolean;
}

/**
 * The tools an executor can run, by name. Tools are added with `register`; toolkits
 * (`calculator.*`) with `register` too, and are loaded on first use of their prefix.
 * Names are unique: registering one twice throws `ExecutorError` (`duplicate_tool`).
 *
 * @example
 * ```ts source="./tool-registry.examples.ts#ToolRegistry"
 * const registry = new ToolRegistry([add, calculatorToolkit()]);
 * await registry.resolve('calculator.sqrt'); // loads the calculator toolkit, returns its sqrt tool
 * registry.list(); // ToolSpecs for a provider
 * ```
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #specs = new Map<string, ToolSpec>();
  readonly #toolkits = new Map<string, ToolkitEntry>();

  constructor(entries: Iterable<AnyTool | Toolkit> = []) {
    for (const entry of entries) this.register(entry);
  }

  /** Adds tools and toolkits. Throws `ExecutorError` (`duplicate_tool`) on a name already taken. */
  register(...entries: Array<AnyTool | Toolkit | readonly (AnyTool | Toolkit)[]>): this {
    for (const entry of entries.flat()) {
      if (isToolkit(entry)) this.#registerToolkit(entry);
      else this.#registerTool(entry, undefined);
    }
    return this;
  }

  /** Removes a tool; returns whether it was there. */
  unregister(name: string): boolean {
    this.#specs.delete(name);
    return this.#tools.delete(name);
  }

  /** Removes a toolkit and every tool it loaded; returns whether it was there. */
  unregisterToolkit(name: string): boolean {
    const entry = this.#toolkits.get(name);
    if (entry === undefined) return false;
    this.#toolkits.delete(name);
    for (const toolName of [...this.#tools.keys()]) {
      if (toolkitPrefix(toolName) === name) this.unregister(toolName);
    }
    return true;
  }

  /**
   * The tool with this name. Loads its toolkit first when that loads synchronously; a
   * toolkit whose `load` is async is left loading (use {@link resolve}).
   */
  get(name: string): AnyTool | undefined {
    const tool = this.#tools.get(name);
    if (tool !== undefined || this.#toolkits.size === 0) return tool;
    const entry = this.#pendingToolkitOf(name);
    if (entry === undefined) return undefined;
    this.#load(entry);
    return this.#tools.get(name);
  }

  /** The tool with this name, loading its toolkit (sync or async) first. */
  async resolve(name: string): Promise<AnyTool | undefined> {
    const tool = this.get(name);
    if (tool !== undefined) return tool;
    const entry = this.#pendingToolkitOf(name);
    if (entry?.loading !== undefined) await entry.loading;
    return this.#tools.get(name);
  }

  /** True when a tool of this name is registered or its toolkit could provide it. */
  has(name: string): boolean {
    return this.get(name) !== undefined || this.#pendingToolkitOf(name)?.loading !== undefined;
  }

  /**
   * The ToolSpecs of every tool, for a provider. Loads toolkits that load synchronously;
   * one whose `load` is async appears once loaded (`await registry.load()` first).
   */
  list(): ToolSpec[] {
    for (const entry of this.#toolkits.values()) if (!entry.loaded) this.#load(entry);
    return [...this.#specs.values()];
  }

  /** Loads every toolkit (or only the named one), waiting for async loaders. */
  async load(toolkitName?: string): Promise<void> {
    const entries =
      toolkitName === undefined
        ? [...this.#toolkits.values()]
        : [this.#toolkits.get(toolkitName)].filter((entry) => entry !== undefined);
    for (const entry of entries) {
      if (!entry.loaded) this.#load(entry);
      if (entry.loading !== undefined) await entry.loading;
    }
  }

  /** The registered toolkits, loaded or not. */
  toolkits(): Toolkit[] {
    return [...this.#toolkits.values()].map((entry) => entry.toolkit);
  }

  /** How many tools are registered now (toolkits count once loaded). */
  get size(): number {
    return this.#tools.size;
  }

  #registerTool(tool: AnyTool, fromToolkit: string | undefined): void {
    if (typeof tool?.name !== 'string' || tool.name === '' || typeof tool.execute !== 'function') {
      throw new ExecutorError({
        code: 'invalid_tool',
        message: `Cannot register ${JSON.stringify(tool?.name)}: a tool needs a name and an \`execute\` function (make it with defineTool).`,
      });
    }
    if (this.#tools.has(tool.name)) {
      throw new ExecutorError({
        code: 'duplicate_tool',
        message: `A tool named "${tool.name}" is already registered; tool names must be unique.`,
      });
    }
    const prefix = toolkitPrefix(tool.name);
    if (fromToolkit === undefined && prefix !== undefined && this.#toolkits.has(prefix)) {
      throw new ExecutorError({
        code: 'duplicate_tool',
        message: `Cannot register "${tool.name}": names "${prefix}.*" belong to the toolkit "${prefix}".`,
      });
    }
    this.#tools.set(tool.name, tool);
    this.#specs.set(tool.name, toolSpecOf(tool));
  }

  #registerToolkit(toolkit: Toolkit): void {
    if (this.#toolkits.has(toolkit.name)) {
      throw new ExecutorError({
        code: 'duplicate_tool',
        message: `A toolkit named "${toolkit.name}" is already registered.`,
      });
    }
    for (const name of this.#tools.keys()) {
      if (toolkitPrefix(name) === toolkit.name) {
        throw new ExecutorError({
          code: 'duplicate_tool',
          message: `Cannot register the toolkit "${toolkit.name}": the tool "${name}" already uses its prefix.`,
        });
      }
    }
    this.#toolkits.set(toolkit.name, { toolkit, loading: undefined, loaded: false });
  }

  #pendingToolkitOf(name: string): ToolkitEntry | undefined {
    const prefix = toolkitPrefix(name);
    if (prefix === undefined) return undefined;
    const entry = this.#toolkits.get(prefix);
    return entry === undefined || entry.loaded ? undefined : entry;
  }

  /** Starts (or, for a sync loader, completes) loading a toolkit. */
  #load(entry: ToolkitEntry): void {
    if (entry.loaded || entry.loading !== undefined) return;
    let loaded: readonly AnyTool[] | Promise<readonly AnyTool[]>;
    try {
      loaded = entry.toolkit.load();
    } catch (cause) {
      throw loadFailed(entry.toolkit, cause);
    }
    if (!isPromiseLike(loaded)) {
      this.#install(entry, loaded);
      return;
    }
    entry.loading = Promise.resolve(loaded).then(
      (tools) => {
        entry.loading = undefined;
        if (this.#toolkits.get(entry.toolkit.name) === entry) this.#install(entry, tools);
      },
      (cause: unknown) => {
        entry.loading = undefined; // a later use tries again
        throw loadFailed(entry.toolkit, cause);
      },
    );
    // The rejection is delivered to whoever awaits `loading`; keep it from being unhandled here.
    entry.loading.catch(() => {});
  }

  #install(entry: ToolkitEntry, tools: readonly AnyTool[]): void {
    const name = entry.toolkit.name;
    if (!Array.isArray(tools)) {
      throw loadFailed(entry.toolkit, new TypeError('load() must return a list of tools'));
    }
    const names = new Set<string>();
    for (const tool of tools) {
      if (names.has(tool?.name)) {
        throw new ExecutorError({
          code: 'toolkit_load_failed',
          message: `Toolkit "${name}" loaded two tools named "${tool.name}".`,
        });
      }
      names.add(tool?.name);
      if (toolkitPrefix(tool?.name ?? '') !== name) {
        throw new ExecutorError({
          code: 'toolkit_load_failed',
          message: `Toolkit "${name}" loaded the tool ${JSON.stringify(tool?.name)}, which is not named "${name}.<action>".`,
        });
      }
    }
    for (const tool of tools) this.#registerTool(tool, name);
    entry.loaded = true;
  }
}

function loadFailed(toolkit: Toolkit, cause: unknown): ExecutorError {
  if (ExecutorError.isInstance(cause)) return cause;
  return new ExecutorError({
    code: 'toolkit_load_failed',
    message: `The toolkit "${toolkit.name}" failed to load: ${errorMessage(cause)}`,
    cause,
  });
}
