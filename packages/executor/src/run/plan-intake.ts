import {
  type ExecutionPlanInput,
  isJsonObject,
  type PlanIssue,
  validateExecutionPlan,
} from '@mtpx/protocol';
import type { BatchGate, CallNode } from './call-node';
import type { Execution } from './plan-execution';
import type { RunHistory } from './plan-execution-types';

/** How a plan's batches are run. */
export type Scheduling = 'eager' | 'batches';

/** One call of a plan, where it stands, and the issues that concern it. */
interface PlanSlot {
  value: unknown;
  batch: number;
  location: string;
  problems: string[] | undefined;
}

/** The calls of a plan in plan order, with the validation issues mapped onto them. */
export interface PlanLayout {
  slots: PlanSlot[];
  /** Per batch: its mode and its slot range. */
  batches: Array<{ sequential: boolean; start: number; end: number }>;
  issues: PlanIssue[];
}

const callLocation = /^batches\[(\d+)\]\.calls\[(\d+)\]$/;
const batchLocation = /^batches\[(\d+)\]$/;

/**
 * Validates a (possibly hand-written, possibly untrusted) plan and lays its calls out in
 * plan order. Each issue lands on the calls it concerns: the call at its location; every
 * call of a batch for a batch-level issue; otherwise the calls it names (for a
 * `ref_not_earlier` or `undeclared_ref` issue, only the offending first one).
 */
export function layOutPlan(plan: ExecutionPlanInput, history: RunHistory | undefined): PlanLayout {
  const issues = validateExecutionPlan(plan, history === undefined ? {} : { history });
  const slots: PlanSlot[] = [];
  const batches: PlanLayout['batches'] = [];
  const rawBatches: unknown = isJsonObject(plan) ? plan.batches : undefined;
  if (Array.isArray(rawBatches)) {
    rawBatches.forEach((batch: unknown, batchIndex) => {
      const start = slots.length;
      const calls = isJsonObject(batch) && Array.isArray(batch.calls) ? batch.calls : [];
      calls.forEach((value, position) => {
        slots.push({
          value,
          batch: batchIndex,
          location: `batches[${batchIndex}].calls[${position}]`,
          problems: undefined,
        });
      });
      const sequential = isJsonObject(batch) && batch.mode === 'sequential';
      batches.push({ sequential, start, end: slots.length });
    });
  }
  if (issues.length > 0) assignIssues(issues, slots, batches);
  return { slots, batches, issues };
}

function assignIssues(
  issues: PlanIssue[],
  slots: PlanSlot[],
  batches: PlanLayout['batches'],
): void {
  const note = (slot: PlanSlot | undefined, message: string) => {
    if (slot === undefined) return;
    slot.problems ??= [];
    if (!slot.problems.includes(message)) slot.problems.push(message);
  };
  let firstById: Map<string, PlanSlot> | undefined;
  for (const issue of issues) {
    const location = issue.location ?? '';
    const atCall = callLocation.exec(location);
    if (atCall !== null) {
      const batch = batches[Number(atCall[1])];
      if (batch !== undefined) note(slots[batch.start + Number(atCall[2])], issue.message);
      continue;
    }
    const atBatch = batchLocation.exec(location);
    if (atBatch !== null) {
      const batch = batches[Number(atBatch[1])];
      if (batch !== undefined)
        for (let index = batch.start; index < batch.end; index++) note(slots[index], issue.message);
      continue;
    }
    if (firstById === undefined) {
      firstById = new Map();
      for (const slot of slots) {
        const id = isJsonObject(slot.value) ? slot.value.id : undefined;
        if (typeof id === 'string' && !firstById.has(id)) firstById.set(id, slot);
      }
    }
    const named =
      issue.code === 'ref_not_earlier' || issue.code === 'undeclared_ref'
        ? issue.callIds.slice(0, 1)
        : issue.callIds;
    for (const id of named) note(firstById.get(id), issue.message);
  }
}

/**
 * Adds a laid-out plan's calls to a run. `eager`: each call starts once its own
 * dependencies (and, in a sequential batch, the previous call) are done. `batches`: a
 * batch starts only once every call of every earlier batch is done, as MTP specifies.
 */
export function addPlan(run: Execution, layout: PlanLayout, scheduling: Scheduling): void {
  let gate: BatchGate | undefined;
  for (const batch of layout.batches) {
    if (scheduling === 'batches') gate = run.gate(gate);
    let previous: CallNode | undefined;
    for (let index = batch.start; index < batch.end; index++) {
      const slot = layout.slots[index] as PlanSlot;
      const planned: { failure?: string; after?: CallNode; gate?: BatchGate } = {};
      if (slot.problems !== undefined) planned.failure = slot.problems.join(' ');
      if (batch.sequential && previous !== undefined) planned.after = previous;
      if (gate !== undefined) planned.gate = gate;
      previous = run.addCall(slot.value, slot.location, planned);
    }
    if (gate !== undefined) run.seal(gate);
  }
}
