import type { ToolResult } from '@mtpx/protocol';
import type { CallNode } from './call-node';

// Messages a model reads in its error results. Where plan validation has the same rule,
// the words are the same (see @mtpx/protocol's call-graph).

const clip = (text: string, length = 200) =>
  text.length > length ? `${text.slice(0, length)}…` : text;

export function duplicateIdMessage(first: CallNode, node: CallNode): string {
  return `Call id "${node.id}" is used twice (${first.location} and ${node.location}); give every call its own id.`;
}

export function reusedIdMessage(node: CallNode): string {
  return `Call id "${node.id}" (${node.location}) was already used by a call in an earlier round; give this call a new id.`;
}

export function selfReferenceMessage(node: CallNode): string {
  return `Call "${node.id}" depends on its own output (${node.id} -> ${node.id}); a call cannot reference itself.`;
}

export function missingDependencyMessage(node: CallNode, target: string): string {
  const how = node.call?.depends_on.includes(target)
    ? `depends on "${target}"`
    : `references {"$ref": "${target}"}`;
  return `Call "${node.id}" ${how}, but no call with that id exists in this response or an earlier round.`;
}

export function cycleMessage(loop: readonly string[]): string {
  return `Calls depend on each other in a cycle: ${loop.join(' -> ')} (read "->" as "needs the output of"); no order can run them, so remove one of these references.`;
}

export function dependencyFailedMessage(
  node: CallNode,
  dependencyId: string,
  dependency: ToolResult,
): string {
  let outcome: string;
  switch (dependency.error_code) {
    case 'dependency_failed':
      outcome = 'was not run either';
      break;
    case 'cancelled':
      outcome = 'was cancelled';
      break;
    case 'approval_required':
      outcome = 'was not approved';
      break;
    case 'denied':
      outcome = 'was denied';
      break;
    default:
      outcome = `failed (${dependency.error_code ?? 'tool_error'}: ${clip(dependency.error ?? 'no message')})`;
  }
  return `Call "${node.id}" was not run: it depends on "${dependencyId}", which ${outcome}.`;
}

export function cancelledMessage(started: boolean, reason: unknown): string {
  const base = started
    ? 'The run was cancelled while this call was running.'
    : 'The run was cancelled before this call started.';
  let why: string | undefined;
  if (typeof reason === 'string' && reason !== '') why = reason;
  else if (reason instanceof Error && reason.name !== 'AbortError' && reason.message !== '')
    why = reason.message;
  return why === undefined ? base : `${base} Reason: ${clip(why)}`;
}

export function timeoutMessage(timeoutMs: number): string {
  return `The call did not finish within ${timeoutMs} ms and was stopped; try a smaller request or a different approach.`;
}
