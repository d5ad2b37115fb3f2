import { ProtocolError } from '@modelcontextprotocol/server';
import { MtpxError } from '@mtpx/protocol';

/** The JSON-RPC error codes the adapter answers with, by name. */
export const JSON_RPC_CODES = {
  /** Invalid params: tampered, expired or foreign request state; a malformed input response; an unknown tool. */
  invalidParams: -32602,
  /** Internal error: a round hook broke the protocol's rules (a server bug). */
  internalError: -32603,
  /** A round asked for an input kind the client did not declare in its capabilities (MCP 2026-07-28). */
  missingClientCapability: -32021,
  /** The client asked for a protocol version the server does not serve; `data` = `{ supported, requested }`. */
  unsupportedProtocolVersion: -32022,
} as const;

/** What went wrong, as a stable string programs branch on. */
export type McpAdapterErrorCode =
  /** `requestState` failed verification: bad signature, malformed, expired, or minted for another call (-32602). */
  | 'invalid_request_state'
  /** An input response the server asked for has the wrong shape (-32602). */
  | 'invalid_input_response'
  /** The call names a tool, prompt or resource the server does not have (-32602). */
  | 'unknown_target'
  /** A round asked for elicitation, sampling or roots that the client did not declare (-32021). */
  | 'missing_client_capability'
  /** The peer speaks a protocol version the other side does not serve (-32022). */
  | 'unsupported_protocol_version'
  /** A round hook returned something the protocol forbids, e.g. no requests and no state (-32603). */
  | 'invalid_round_result'
  /** A client-side handler needed for an input request was not configured, or its capability not declared. */
  | 'handler_not_configured'
  /** A call needs input from an MCP client but runs where there is none (outside an MCP server). */
  | 'input_unavailable'
  /** The remote server answered a call with a JSON-RPC error. */
  | 'remote_error'
  /** Anything else the adapter could not do (a transport failure, a bad option). */
  | 'adapter_error';

/** What an {@link McpAdapterError} is built from. */
export interface McpAdapterErrorOptions {
  code: McpAdapterErrorCode;
  message: string;
  /** The JSON-RPC error code this error travels as, when it crosses the wire. */
  jsonRpcCode?: number;
  /** JSON-RPC error `data`. */
  data?: unknown;
  cause?: unknown;
}

const markerName = 'mtpx.error.McpAdapterError';
const marker = Symbol.for(markerName);

/**
 * An error of the MCP adapter. `jsonRpcCode` is the JSON-RPC code it is sent as (server
 * side) or was received as (client side): -32602 for invalid params and request state,
 * -32021 for a missing client capability, -32022 for an unsupported protocol version.
 *
 * @example
 * ```ts source="./mcp.examples.ts#McpAdapterError"
 * try {
 *   await client.callTool({ name: 'book', arguments: {} });
 * } catch (error) {
 *   const adapted = McpAdapterError.fromUnknown(error);
 *   if (adapted.jsonRpcCode === JSON_RPC_CODES.missingClientCapability) console.log(adapted.data);
 * }
 * ```
 */
export class McpAdapterError extends MtpxError<McpAdapterErrorCode> {
  protected readonly [marker] = true;

  /** The JSON-RPC error code, when the error crossed (or will cross) the wire as one. */
  readonly jsonRpcCode: number | undefined;
  /** The JSON-RPC error's `data`, when there is any. */
  readonly data: unknown;

  constructor({ code, message, jsonRpcCode, data, cause }: McpAdapterErrorOptions) {
    super({ code, message, cause });
    this.name = 'McpAdapterError';
    this.jsonRpcCode = jsonRpcCode;
    this.data = data;
  }

  static override isInstance(error: unknown): error is McpAdapterError {
    return MtpxError.hasMarker(error, markerName);
  }

  /**
   * Wraps an error thrown by an MCP SDK (which carries a numeric `code` and maybe `data`)
   * as an McpAdapterError that keeps that code as `jsonRpcCode`. McpAdapterErrors pass through.
   */
  static fromUnknown(error: unknown): McpAdapterError {
    if (McpAdapterError.isInstance(error)) return error;
    const message = error instanceof Error ? error.message : String(error);
    const rpc = error as { code?: unknown; data?: unknown } | null;
    const jsonRpcCode = typeof rpc?.code === 'number' ? rpc.code : undefined;
    return new McpAdapterError({
      code: codeForJsonRpc(jsonRpcCode),
      message,
      jsonRpcCode,
      data: rpc?.data,
      cause: error,
    });
  }
}

/**
 * The SDK error that sends `error` over the wire as a JSON-RPC error: its `jsonRpcCode`
 * (-32603 when it has none), its message and its `data`.
 */
export function toProtocolError(error: McpAdapterError): ProtocolError {
  return new ProtocolError(
    error.jsonRpcCode ?? JSON_RPC_CODES.internalError,
    error.message,
    error.data,
  );
}

function codeForJsonRpc(jsonRpcCode: number | undefined): McpAdapterErrorCode {
  switch (jsonRpcCode) {
    case undefined:
      return 'adapter_error';
    case JSON_RPC_CODES.missingClientCapability:
      return 'missing_client_capability';
    case JSON_RPC_CODES.unsupportedProtocolVersion:
      return 'unsupported_protocol_version';
    default:
      return 'remote_error';
  }
}
