import type { CallToolResult } from '@modelcontextprotocol/server';
import type { AnyTool } from '@mtpx/executor';
import type { JsonValue } from '@mtpx/protocol';
import { errorToCallToolResult } from '../definitions/tool-content';
import { formElicitation } from './input-requests';
import { viewInputResponse } from './input-responses';
import {
  complete,
  type InputRoundContext,
  type InputRoundResult,
  inputRequired,
} from './input-round';

/** The key of the confirmation request a policy's `ask` adds before a tool runs. */
export const APPROVAL_KEY = 'mtpx_approval';

/** What the gate keeps in the request state around the tool's own state. */
interface GateState {
  mtpxApproval: 'asked' | 'granted';
  inner?: JsonValue;
}

const approvalSchema = {
  type: 'object' as const,
  properties: { approve: { type: 'boolean', title: 'Allow this call' } },
  required: ['approve'],
};

/**
 * The confirmation round of a tool whose policy decision is `ask`: the first round asks
 * the user (a form elicitation); a `true` answer runs the tool (its own rounds follow,
 * with its state kept inside the gate's), anything else ends the call with an error
 * result saying it was not approved.
 */
export async function approvalGate(
  tool: AnyTool,
  args: Record<string, unknown>,
  context: InputRoundContext,
  run: (inner: InputRoundContext) => Promise<InputRoundResult<CallToolResult>>,
): Promise<InputRoundResult<CallToolResult>> {
  const state = context.requestState as GateState | undefined;
  if (state?.mtpxApproval === 'granted') {
    return keepGranted(await run(innerContext(context, state.inner, context.inputResponses)));
  }
  if (state?.mtpxApproval === 'asked') {
    if (context.accepted(APPROVAL_KEY)?.approve !== true) {
      return complete(
        errorToCallToolResult(`${tool.name} was not run: the user did not approve the call.`),
      );
    }
    return keepGranted(await run(innerContext(context, undefined, {})));
  }
  return inputRequired(
    {
      [APPROVAL_KEY]: formElicitation(
        `Allow ${tool.name} (${tool.risk_level ?? 'read_only'}) to run with ${JSON.stringify(args)}?`,
        approvalSchema,
      ),
    },
    { mtpxApproval: 'asked' },
  );
}

function keepGranted(result: InputRoundResult<CallToolResult>): InputRoundResult<CallToolResult> {
  if (result.type === 'complete') return result;
  const state: GateState = { mtpxApproval: 'granted' };
  if (result.state !== undefined) state.inner = result.state;
  return inputRequired(result.requests, state as unknown as JsonValue);
}

/** The tool's own view of the round: its state, its answers, its round count. */
function innerContext(
  context: InputRoundContext,
  requestState: JsonValue | undefined,
  inputResponses: InputRoundContext['inputResponses'],
): InputRoundContext {
  const fresh = inputResponses !== context.inputResponses;
  return {
    ...context,
    requestState,
    inputResponses,
    round: context.inputRound - 1,
    response: (key) => (fresh ? viewInputResponse(undefined) : context.response(key)),
    accepted: ((key: string, schema?: never) =>
      fresh ? undefined : context.accepted(key, schema as never)) as InputRoundContext['accepted'],
  };
}
