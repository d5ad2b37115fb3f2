import type { Approval, JsonObject, RiskLevel, ToolCall, ToolSpec } from '@mtpx/protocol';
import { ExecutorError } from '../errors';
import { toolkitPrefix } from '../tools/toolkit';

/**
 * Decides, before a call runs, whether it may: `allow`, `ask` (run only if the executor's
 * `approve` handler says yes) or `deny`.
 */
export interface ToolPolicy {
  /** `allow`, `ask` or `deny` for this call of the tool `spec` describes. */
  decide(spec: ToolSpec, call: ToolCall): Approval;
}

/**
 * The handler for `ask` decisions: resolve `true` to run the call. `args` are the
 * resolved, validated arguments; `signal` fires if the run is cancelled meanwhile.
 * `'defer'` leaves the decision to later: in a plan execution with `approvals` (an agent
 * with a run journal) the call waits for a decision made outside the run
 * (`agent.resume(runId, { approvals })`); elsewhere it is answered `approval_required`.
 */
export type ApproveHandler = (
  spec: ToolSpec,
  call: ToolCall,
  args: JsonObject,
  context: { signal: AbortSignal },
) => boolean | 'defer' | Promise<boolean | 'defer'>;

/** Options of {@link RiskPolicy}. */
export interface RiskPolicyOptions {
  /** Decision per risk level; unset levels keep the defaults (read_only, write → allow; destructive → ask). */
  defaults?: Partial<Record<RiskLevel, Approval>>;
  /**
   * Decisions per tool, overriding the risk level: exact names (`file.write_file`) or a
   * whole toolkit (`file.*`). An exact name wins over its toolkit.
   */
  tools?: Readonly<Record<string, Approval>>;
}

const approvals = new Set<string>(['allow', 'ask', 'deny']);

/**
 * The standard {@link ToolPolicy}: a decision per risk level, with per-tool overrides.
 * Defaults follow MTP: `read_only` → allow, `write` → allow, `destructive` → ask.
 *
 * @example
 * ```ts source="./risk-policy.examples.ts#RiskPolicy"
 * const policy = new RiskPolicy({
 *   defaults: { write: 'ask' },
 *   tools: { 'file.*': 'deny', 'file.read_file': 'allow' },
 * });
 * policy.decide(readFile); // 'allow' for file.read_file
 * ```
 */
export class RiskPolicy implements ToolPolicy {
  readonly #byRisk: Record<RiskLevel, Approval>;
  readonly #byTool: ReadonlyMap<string, Approval>;

  constructor({ defaults = {}, tools = {} }: RiskPolicyOptions = {}) {
    this.#byRisk = { read_only: 'allow', write: 'allow', destructive: 'ask', ...defaults };
    for (const [level, decision] of Object.entries(this.#byRisk))
      checkApproval(`defaults.${level}`, decision);
    for (const [name, decision] of Object.entries(tools))
      checkApproval(`tools["${name}"]`, decision);
    this.#byTool = new Map(Object.entries(tools));
  }

  /** The tool's own decision if one was set, else its risk level's default. */
  decide(spec: ToolSpec): Approval {
    if (this.#byTool.size > 0) {
      const exact = this.#byTool.get(spec.name);
      if (exact !== undefined) return exact;
      const prefix = toolkitPrefix(spec.name);
      const toolkit = prefix === undefined ? undefined : this.#byTool.get(`${prefix}.*`);
      if (toolkit !== undefined) return toolkit;
    }
    return this.#byRisk[spec.risk_level ?? 'read_only'] ?? 'ask';
  }
}

function checkApproval(where: string, decision: unknown): void {
  if (!approvals.has(decision as string)) {
    throw new ExecutorError({
      code: 'invalid_option',
      message: `RiskPolicy: ${where} must be "allow", "ask" or "deny", got ${JSON.stringify(decision)}.`,
    });
  }
}

/** A policy from what `createExecutor` accepts: a policy object, RiskPolicy options, or nothing. */
export function toPolicy(policy: ToolPolicy | RiskPolicyOptions | undefined): ToolPolicy {
  if (policy === undefined) return new RiskPolicy();
  if (typeof (policy as ToolPolicy).decide === 'function') return policy as ToolPolicy;
  return new RiskPolicy(policy as RiskPolicyOptions);
}
