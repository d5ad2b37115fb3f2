import { MtpxError } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import { JSON_RPC_CODES, McpAdapterError } from './errors';

describe('McpAdapterError', () => {
  it('is an MtpxError with a JSON-RPC code, recognised without instanceof', () => {
    const error = new McpAdapterError({
      code: 'missing_client_capability',
      message: 'no sampling',
      jsonRpcCode: JSON_RPC_CODES.missingClientCapability,
      data: { requiredCapabilities: { sampling: {} } },
    });
    expect(MtpxError.isInstance(error)).toBe(true);
    expect(McpAdapterError.isInstance(error)).toBe(true);
    expect(McpAdapterError.isInstance(new MtpxError({ code: 'x', message: 'y' }))).toBe(false);
    expect({ ...error, name: error.name }).toMatchObject({
      name: 'McpAdapterError',
      jsonRpcCode: -32021,
    });
  });

  it.each([
    [{ code: -32021, message: 'caps', data: { a: 1 } }, 'missing_client_capability', -32021],
    [{ code: -32022, message: 'version' }, 'unsupported_protocol_version', -32022],
    [{ code: -32602, message: 'bad' }, 'remote_error', -32602],
    [new Error('socket closed'), 'adapter_error', undefined],
    ['text', 'adapter_error', undefined],
  ])('wraps %j from an SDK', (thrown, code, jsonRpcCode) => {
    const error = McpAdapterError.fromUnknown(thrown);
    expect(error.code).toBe(code);
    expect(error.jsonRpcCode).toBe(jsonRpcCode);
    expect(error.cause).toBe(thrown);
    expect(McpAdapterError.fromUnknown(error)).toBe(error);
  });
});
