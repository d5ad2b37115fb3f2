import { shorten, type Terminal } from '@mtpx/example-kit';
import type { CallResult, ProvenanceEntry, TaskPlanPayload } from '@mtpx/mpl';
import type { JsonObject, JsonValue, Usage } from '@mtpx/protocol';
import type { ExecutorAgentEvent } from './executor-events';
import type { PlanOutcome } from './plan-executor';

const INDENT = ' '.repeat(11);

function hash(value: string | null): string {
  return value === null ? 'root' : shorten(value, 20);
}

function summarize(output: JsonValue | undefined): string {
  if (typeof output === 'object' && output !== null && !Array.isArray(output)) {
    const record = output as JsonObject;
    if (typeof record.answer === 'string') return record.answer;
    if (typeof record.summary === 'string') return record.summary;
    if (Array.isArray(record.prices)) return `${record.prices.length} prices extracted`;
  }
  return shorten(JSON.stringify(output) ?? 'nothing', 100);
}

/** What a failure strategy did with a failure that remained. */
function strategyText(event: Extract<ExecutorAgentEvent, { type: 'strategy-applied' }>): string {
  if (event.action === 'skip') return `failureStrategy skip: step ${event.stepId} is left out`;
  if (event.strategy !== 'retry') return `failureStrategy ${event.strategy}: the plan is aborted`;
  const why =
    event.attempts >= event.maxAttempts
      ? `no retry left after ${event.attempts} ${event.attempts === 1 ? 'attempt' : 'attempts'}`
      : 'the failure is not retryable';
  return `failureStrategy retry: ${why}, the plan is aborted`;
}

/** Writes what the planner, the proxy and the executor do, as readable lines. */
export class PlanView {
  readonly #terminal: Terminal;

  constructor(terminal: Terminal) {
    this.#terminal = terminal;
  }

  /** The line for one message the proxy accepted and recorded. */
  recorded(method: string, stype: string, call: CallResult, note?: string): void {
    const { colors } = this.#terminal;
    const qom = `QoM ${call.qomPassed ? colors.green('pass') : colors.red('fail')}`;
    this.#terminal.line(
      `  ${colors.dim(`#${String(call.provenance.seq).padEnd(3)}`)}${colors.green('✓')} ${method.padEnd(19)}${colors.cyan(stype.padEnd(29))}${colors.dim(shorten(call.semHash, 20))}  ${qom}${note ? `  ${note}` : ''}`,
    );
  }

  plan(
    plan: TaskPlanPayload,
    plannerLabel: string,
    usage: Usage | undefined,
    strategyOverride: string | undefined,
  ): void {
    const { colors, label } = {
      colors: this.#terminal.colors,
      label: this.#terminal.label('planner'),
    };
    const spent = usage && usage.totalTokens > 0 ? ` (${usage.totalTokens} tokens)` : '';
    this.#terminal.line(`${label}${plannerLabel}: one native tool call to submit_plan${spent}`);
    this.#terminal.line(`${INDENT}plan ${colors.dim(plan.planId)}: ${colors.bold(plan.goal)}`);
    for (const step of plan.steps) {
      const after = step.dependsOn?.length ? `after ${step.dependsOn.join(', ')}` : '';
      const typed = step.args_stype ? `args ${step.args_stype}` : '';
      this.#terminal.line(
        `${INDENT}  ${String(step.stepId).padEnd(3)}${step.tool.padEnd(17)}${shorten(step.action, 42).padEnd(44)}${colors.dim([after, typed].filter(Boolean).join(' · '))}`,
      );
    }
    const constraints = plan.constraints ?? {};
    const overridden =
      strategyOverride === undefined
        ? ''
        : colors.yellow(` (--strategy ${strategyOverride} overrides it)`);
    this.#terminal.line(
      `${INDENT}  on failure: ${constraints.failureStrategy ?? 'abort (default)'}${overridden}${constraints.maxRetries === undefined ? '' : ` · maxRetries ${constraints.maxRetries}`}${constraints.timeoutSeconds === undefined ? '' : ` · timeout ${constraints.timeoutSeconds} s`}`,
    );
  }

  planReceived(goal: string): void {
    this.#terminal.line(
      `${this.#terminal.label('executor')}received the plan from its session: "${goal}"`,
    );
  }

  /** Renders one executor agent event. */
  event(event: ExecutorAgentEvent): void {
    const { colors } = this.#terminal;
    switch (event.type) {
      case 'reasoning-decided':
        this.#terminal.line(`${INDENT}${colors.dim('thought:')} ${event.reasoning.thought}`);
        this.#terminal.line(`${INDENT}${colors.dim('conclusion:')} ${event.reasoning.conclusion}`);
        return;
      case 'message-recorded':
        this.recorded(event.method, event.stype, event.call, event.note);
        return;
      case 'message-refused': {
        const details = event.error.details.map((detail) => `${detail.path}: ${detail.message}`);
        this.#terminal.line(
          `       ${colors.red('✗')} ${event.method.padEnd(19)}${colors.cyan(event.stype.padEnd(29))}${colors.red(`refused [${event.error.code}]`)} ${event.error.message}`,
        );
        for (const detail of details) this.#terminal.line(`${INDENT}  ${colors.dim(detail)}`);
        return;
      }
      case 'step-started': {
        const attempts =
          event.maxAttempts > 1
            ? colors.dim(` · one invocation, up to ${event.maxAttempts} attempts`)
            : '';
        this.#terminal.line(
          `${this.#terminal.label(`step ${event.stepId}`)}${event.tool}${attempts}`,
        );
        return;
      }
      case 'tool-retried':
        this.#terminal.line(
          `       ${colors.red('✗')} ${event.tool} attempt ${event.attempt} of ${event.maxAttempts} failed: ${event.error}`,
        );
        this.#terminal.line(
          `       ${colors.yellow('↻')} ${colors.yellow(`failureStrategy retry: attempt ${event.attempt + 1} of ${event.maxAttempts} after ${event.delayMs} ms, within the same invocation`)}`,
        );
        return;
      case 'tool-finished': {
        const took = `${Math.round(event.durationMs)} ms`;
        const { result } = event;
        const onAttempt = event.attempts > 1 ? ` on attempt ${event.attempts}` : '';
        this.#terminal.line(
          result.success
            ? `       ${colors.green('✓')} ${result.tool_name} succeeded${onAttempt} in ${took}: ${summarize(result.output)}`
            : `       ${colors.red('✗')} ${result.tool_name} failed${onAttempt} in ${took}: ${result.error ?? 'no reason given'}`,
        );
        return;
      }
      case 'strategy-applied':
        this.#terminal.line(`       ${colors.yellow('↻')} ${colors.yellow(strategyText(event))}`);
        return;
      case 'step-not-run':
        this.#terminal.line(
          `${this.#terminal.label(`step ${event.stepId}`)}${event.tool} ${colors.yellow(`not run: ${event.reason}`)}`,
        );
        return;
    }
  }

  outcome(outcome: PlanOutcome): void {
    const { colors } = this.#terminal;
    const succeeded = outcome.steps.filter((step) => step.status === 'succeeded').length;
    const total = `${outcome.steps.length} ${outcome.steps.length === 1 ? 'step' : 'steps'}`;
    const retries = `${outcome.retries} ${outcome.retries === 1 ? 'retry' : 'retries'}`;
    const left = outcome.steps.filter((step) => step.status !== 'succeeded');
    const headline =
      outcome.status === 'completed'
        ? colors.green(`plan completed: ${succeeded} of ${total} succeeded, ${retries}`)
        : outcome.status === 'partial'
          ? colors.yellow(
              `plan finished without ${left.length === 1 ? 'step' : 'steps'} ${left.map((step) => step.stepId).join(', ')}: ${succeeded} of ${total} succeeded`,
            )
          : colors.red(`plan ${outcome.status}: ${outcome.reason ?? ''}`);
    this.#terminal.line();
    this.#terminal.line(`${this.#terminal.label('result')}${headline}`);
    const last = [...outcome.steps].reverse().find((step) => step.status === 'succeeded');
    if (outcome.status === 'completed' && last)
      this.#terminal.line(`${INDENT}${summarize(last.output)}`);
  }

  chain(planId: string, chain: readonly ProvenanceEntry[]): void {
    const { colors } = this.#terminal;
    this.#terminal.line();
    this.#terminal.line(
      `${this.#terminal.label('provenance')}GET /provenance?planId=${planId}: ${chain.length} entries`,
    );
    this.#terminal.line(
      colors.dim(
        `${INDENT}${'seq'.padEnd(5)}${'stype'.padEnd(29)}${'sem_hash'.padEnd(22)}${'parent_hash'.padEnd(22)}qom`,
      ),
    );
    for (const entry of chain)
      this.#terminal.line(
        `${INDENT}${String(entry.seq).padEnd(5)}${colors.cyan(entry.stype.padEnd(29))}${hash(entry.sem_hash).padEnd(22)}${hash(entry.parent_hash).padEnd(22)}${entry.qom_passed ? colors.green('pass') : colors.red('fail')}`,
      );
  }

  verification(result: {
    valid: boolean;
    length: number;
    head: string | null;
    problems: readonly string[];
  }): void {
    const { colors } = this.#terminal;
    if (result.valid) {
      this.#terminal.line(
        `${this.#terminal.label('verified', colors.green)}${result.length} entries: every sem_hash, parent_hash and entry_hash recomputed, by this process and by the proxy (head ${hash(result.head)})`,
      );
      return;
    }
    this.#terminal.line(`${this.#terminal.label('BROKEN', colors.red)}the chain does not verify:`);
    for (const problem of result.problems) this.#terminal.line(`${INDENT}${problem}`);
  }
}
