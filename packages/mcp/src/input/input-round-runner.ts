import type { InputRequiredResult, ServerContext } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { missingCapability } from '../client/client-capabilities';
import { JSON_RPC_CODES, McpAdapterError, toProtocolError } from '../errors';
import type { InputRequests } from './input-requests';
import { checkInputResponse, type InputResponse, viewInputResponse } from './input-responses';
import type {
  ClientCapabilities,
  InputRoundContext,
  InputRoundHook,
  InputRoundResult,
  ProgressOptions,
} from './input-round';
import { jsonDigest } from './json-digest';
import type { RoundState, StateBinding, StateSigner } from './request-state';

/** One call of a multi-round tool, prompt or resource. */
export interface RoundCall<TArgs, TValue> {
  method: 'tools/call' | 'prompts/get' | 'resources/read';
  /** The tool or prompt name, or the resource URI. */
  target: string;
  args: TArgs;
  hook: InputRoundHook<TArgs, TValue>;
}

/** What the runner needs from the server around it. */
export interface RoundEnvironment {
  signer: StateSigner;
  context: ServerContext;
  clientCapabilities: ClientCapabilities;
  era: 'modern' | 'legacy';
  /** Out-of-band reports (why a state was refused); never sent to the client. */
  onError?: ((error: Error) => void) | undefined;
}

/** How one round ended. */
export type RoundOutcome<TValue> =
  | { type: 'complete'; value: TValue }
  | { type: 'input_required'; result: InputRequiredResult }
  /** The hook threw: a tool turns this into an `isError` result. */
  | { type: 'failed'; error: unknown };

/**
 * Runs one round of `call`: verifies the echoed state, checks the answers to the previous
 * round's requests (asking again for missing ones, refusing malformed ones with -32602),
 * runs the hook, and turns an `inputRequired(...)` into a signed `input_required` result
 * after checking the client can answer each request (-32021 otherwise).
 */
export async function runRound<TArgs, TValue>(
  call: RoundCall<TArgs, TValue>,
  environment: RoundEnvironment,
): Promise<RoundOutcome<TValue>> {
  const binding: StateBinding = {
    method: call.method,
    target: call.target,
    argumentsDigest: jsonDigest(call.args ?? {}),
  };
  const { context, signer } = environment;
  const token: unknown = context.mcpReq.requestState();
  if (token !== undefined) {
    return runFrom(
      call,
      environment,
      binding,
      readState(token, signer, binding, environment.onError),
    );
  }
  return runFrom(call, environment, binding, FIRST_ROUND, true);
}

/**
 * One round from `previous`. On a first round (`answersInAdvance`), a client may already
 * send the answers (SEP-2322 servers need not keep state): when the hook asks for input
 * and the request carries a well-formed response for every key it asks, the round runs
 * again with those answers instead of asking.
 */
async function runFrom<TArgs, TValue>(
  call: RoundCall<TArgs, TValue>,
  environment: RoundEnvironment,
  binding: StateBinding,
  previous: RoundState,
  answersInAdvance = false,
): Promise<RoundOutcome<TValue>> {
  const { context, signer } = environment;
  const answers = collectAnswers(previous, context);

  const missing = Object.keys(previous.pending).filter((key) => !(key in answers));
  if (missing.length > 0) {
    // Ask again for what is still missing; keep what already arrived.
    const pending = Object.fromEntries(missing.map((key) => [key, previous.pending[key]]));
    const next: RoundState = { ...previous, received: answers };
    return inputRequiredOutcome(pending as InputRequests, next, binding, signer);
  }

  let lastProgress = previous.lastProgress;
  const progressToken = context.mcpReq._meta?.progressToken;
  const roundContext: InputRoundContext = {
    clientCapabilities: environment.clientCapabilities,
    inputResponses: Object.freeze({ ...answers }),
    requestState: previous.state,
    inputRound: previous.round,
    round: previous.round,
    era: environment.era,
    signal: context.mcpReq.signal,
    async progress(progress: number, options: ProgressOptions = {}) {
      if (progressToken === undefined) return;
      if (lastProgress !== undefined && !(progress > lastProgress)) return;
      lastProgress = progress;
      await context.mcpReq.notify({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(options.total !== undefined && { total: options.total }),
          ...(options.message !== undefined && { message: options.message }),
        },
      });
    },
    async log(level, data, logger) {
      await context.mcpReq.log(level, data, logger);
    },
    response: (key) => viewInputResponse(answers[key]),
    accepted: ((key: string, schema?: z.ZodType) => {
      const view = viewInputResponse(answers[key]);
      if (view.kind !== 'elicitation' || view.action !== 'accept') return undefined;
      const content = view.content ?? {};
      if (schema === undefined) return content;
      const parsed = schema.safeParse(content);
      return parsed.success ? parsed.data : undefined;
    }) as InputRoundContext['accepted'],
  };

  let result: InputRoundResult<TValue>;
  try {
    result = await call.hook(call.args, roundContext);
  } catch (error) {
    return { type: 'failed', error };
  }
  if (result.type === 'complete') return { type: 'complete', value: result.value };

  const requests = result.requests ?? {};
  if (Object.keys(requests).length === 0 && result.state === undefined) {
    throw toProtocolError(
      new McpAdapterError({
        code: 'invalid_round_result',
        message: `The round hook of ${call.target} returned inputRequired() with no requests and no state; give at least one of the two.`,
        jsonRpcCode: JSON_RPC_CODES.internalError,
      }),
    );
  }
  for (const [key, request] of Object.entries(requests)) {
    const required = missingCapability(request, environment.clientCapabilities);
    if (required !== undefined) {
      throw toProtocolError(
        new McpAdapterError({
          code: 'missing_client_capability',
          message: `Cannot request input '${key}' (${request.method}): the client did not declare the capability it needs`,
          jsonRpcCode: JSON_RPC_CODES.missingClientCapability,
          data: { requiredCapabilities: required },
        }),
      );
    }
  }
  const next: RoundState = {
    round: previous.round + 1,
    pending: requests,
    received: {},
    ...(lastProgress !== undefined && { lastProgress }),
    ...(result.state !== undefined && { state: result.state }),
  };
  if (answersInAdvance && answersEveryRequest(requests, context)) {
    return runFrom(call, environment, binding, next);
  }
  return inputRequiredOutcome(requests, next, binding, signer);
}

/** True when the request carries a response object for every key of `requests`. */
function answersEveryRequest(requests: InputRequests, context: ServerContext): boolean {
  const keys = Object.keys(requests);
  const incoming = context.mcpReq.inputResponses ?? {};
  const dropped = new Set(context.mcpReq.droppedInputResponseKeys ?? []);
  return (
    keys.length > 0 &&
    keys.every(
      (key) =>
        key in incoming &&
        !dropped.has(key) &&
        checkInputResponse(requests[key] as InputRequests[string], incoming[key]).ok,
    )
  );
}

const FIRST_ROUND: RoundState = { round: 1, pending: {}, received: {} };

function readState(
  token: unknown,
  signer: StateSigner,
  binding: StateBinding,
  onError: RoundEnvironment['onError'],
): RoundState {
  const verified = typeof token === 'string' ? signer.verify(token, binding) : undefined;
  if (verified?.ok) return verified.state;
  const reason = verified === undefined ? 'malformed' : verified.reason;
  onError?.(
    new McpAdapterError({
      code: 'invalid_request_state',
      message: `requestState refused for ${binding.method} ${binding.target}: ${reason}`,
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
      data: { reason },
    }),
  );
  // The wire gets no detail: the reason stays with the server.
  throw toProtocolError(
    new McpAdapterError({
      code: 'invalid_request_state',
      message: 'Invalid or expired requestState',
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
      data: { reason: 'invalid_request_state' },
    }),
  );
}

/** The answers so far: earlier ones kept in the state plus this request's, each checked. */
function collectAnswers(
  previous: RoundState,
  context: ServerContext,
): Record<string, InputResponse> {
  const answers: Record<string, InputResponse> = { ...previous.received };
  const incoming = context.mcpReq.inputResponses ?? {};
  const dropped = new Set(context.mcpReq.droppedInputResponseKeys ?? []);
  for (const [key, request] of Object.entries(previous.pending)) {
    if (dropped.has(key)) throw malformedResponse(key, 'it is not a bare response object');
    if (!(key in incoming)) continue;
    const checked = checkInputResponse(request, incoming[key]);
    if (!checked.ok) throw malformedResponse(key, checked.problem);
    answers[key] = checked.value;
  }
  return answers;
}

function malformedResponse(key: string, problem: string) {
  return toProtocolError(
    new McpAdapterError({
      code: 'invalid_input_response',
      message: `Invalid input response '${key}': ${problem}`,
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
      data: { reason: 'invalid_input_response', key },
    }),
  );
}

function inputRequiredOutcome(
  requests: InputRequests,
  next: RoundState,
  binding: StateBinding,
  signer: StateSigner,
): { type: 'input_required'; result: InputRequiredResult } {
  const result = {
    resultType: 'input_required',
    ...(Object.keys(requests).length > 0 && { inputRequests: requests }),
    requestState: signer.mint(next, binding),
  } as unknown as InputRequiredResult;
  return { type: 'input_required', result };
}
