import { JSON_RPC_CODES, McpAdapterError, toProtocolError } from '../errors';
import type { RoundOutcome } from '../input/input-round-runner';

/** A round's outcome as what the request answers: the value, an `input_required` result, or a failure. */
export function settle<TValue, TResult>(
  outcome: RoundOutcome<TValue>,
  onComplete: (value: TValue) => TResult,
  onFailure: (message: string, error: unknown) => TResult,
) {
  switch (outcome.type) {
    case 'complete':
      return onComplete(outcome.value);
    case 'input_required':
      return outcome.result;
    case 'failed':
      return onFailure(
        outcome.error instanceof Error ? outcome.error.message : String(outcome.error),
        outcome.error,
      );
  }
}

/**
 * Prompts and resources have no `isError` result: a throwing hook is a JSON-RPC error —
 * an McpAdapterError's own code when it has one, -32603 otherwise.
 */
export function failure(what: string) {
  return (message: string, error: unknown): never => {
    if (McpAdapterError.isInstance(error) && error.jsonRpcCode !== undefined) {
      throw toProtocolError(error);
    }
    throw toProtocolError(
      new McpAdapterError({
        code: 'adapter_error',
        message: `The ${what} failed: ${message}`,
        jsonRpcCode: JSON_RPC_CODES.internalError,
        cause: error,
      }),
    );
  };
}

/** SEP-2164: -32602 with `data` exactly `{ uri }`, which clients read as resource-not-found. */
export function unknownResource(uri: string) {
  return toProtocolError(
    new McpAdapterError({
      code: 'unknown_target',
      message: `Resource not found: ${uri}`,
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
      data: { uri },
    }),
  );
}

/** -32602 for a tool or prompt the server does not have. */
export function unknownTarget(kind: string, name: string) {
  return toProtocolError(
    new McpAdapterError({
      code: 'unknown_target',
      message: `Unknown ${kind}: ${name}`,
      jsonRpcCode: JSON_RPC_CODES.invalidParams,
    }),
  );
}
