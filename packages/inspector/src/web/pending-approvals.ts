import type { PendingApprovalView } from '../view/run-model';
import { h, pretty } from './dom';

/**
 * A run waiting for approval: for each pending call, what it would do — the tool, its
 * arguments as resolved, the `$ref`s they came from — why it needs a person, and what
 * waits on it.
 */
export function pendingApprovalsSection(pending: readonly PendingApprovalView[]): HTMLElement {
  return h(
    'section',
    { class: 'pending-approvals', 'data-pending-approvals': true },
    h('h2', {}, `Waiting for approval (${pending.length})`),
    h(
      'p',
      { class: 'muted' },
      'Nothing else could run. agent.resume(runId, { approvals }) goes on, in any process with the journal.',
    ),
    pending.map((approval) =>
      h(
        'article',
        { class: 'pending-approval', 'data-pending-approval': approval.callId },
        h(
          'h3',
          {},
          `${approval.callId} `,
          h('span', { class: 'mono' }, approval.toolName),
          ' ',
          h('span', { class: 'badge badge-waiting' }, approval.riskLevel),
        ),
        h('p', { class: 'muted' }, approval.reason),
        h(
          'div',
          { class: 'field' },
          h('div', { class: 'who' }, 'arguments, as resolved'),
          h('pre', { 'data-pending-arguments': true }, pretty(approval.arguments)),
        ),
        h(
          'div',
          { class: 'field' },
          h('div', { class: 'who' }, 'from'),
          approval.references.length > 0
            ? approval.references.map((id) => `$${id}`).join(', ')
            : 'no $ref',
        ),
        h(
          'div',
          { class: 'field', 'data-pending-waiting': true },
          h('div', { class: 'who' }, 'waits on it'),
          approval.waiting.length > 0 ? approval.waiting.join(', ') : 'nothing',
        ),
        h('p', { class: 'muted mono' }, `approval ${approval.approvalId}`),
      ),
    ),
  );
}
