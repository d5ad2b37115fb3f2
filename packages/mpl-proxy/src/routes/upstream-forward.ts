import type { IncomingHttpHeaders } from 'node:http';
import { type ErrorDetail, MplError, UpstreamError } from '@mtpx/mpl';
import { SEM_HASH_HEADER, STYPE_HEADER } from '@mtpx/mpl/internal';
import { type JsonValue, safeParseJson } from '@mtpx/protocol';
import type { CallRouteContext, ParsedCall } from './call-context';

/** The request header a caller names the SType it expects the upstream to answer with. */
export const RESPONSE_STYPE_HEADER = 'X-MPL-Response-SType';

/** The upstream's answer, and its check against the SType it declared (when it declared one). */
export interface UpstreamAnswer {
  data: JsonValue;
  check?: { stype: string; valid: boolean; sem_hash: string; errors: ErrorDetail[] };
}

/**
 * Sends a validated call to the upstream service and returns its JSON answer. When the
 * upstream names its answer's SType (`X-MPL-SType` on the response), or the caller named
 * the one it expects (`X-MPL-Response-SType`), the answer is validated against it: in
 * strict mode an answer that does not conform is a 502 `E-UPSTREAM` listing why.
 */
export async function forward(
  context: CallRouteContext,
  call: ParsedCall,
  semHash: string,
  headers: IncomingHttpHeaders,
): Promise<UpstreamAnswer | MplError> {
  const upstream = context.upstream as string;
  let answer: Response;
  try {
    answer = await fetch(upstream, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        [STYPE_HEADER]: call.stype,
        [SEM_HASH_HEADER]: semHash,
      },
      body: JSON.stringify({ method: call.method, payload: call.payload }),
      signal: AbortSignal.timeout(context.upstreamTimeoutMs),
    });
  } catch (cause) {
    context.metrics.upstreamRequests.inc({ result: 'unreachable' });
    return new UpstreamError({
      message: `The upstream ${upstream} could not be reached: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
  }
  const text = await answer.text();
  if (!answer.ok) {
    context.metrics.upstreamRequests.inc({ result: 'error' });
    return new UpstreamError({
      message: `The upstream ${upstream} answered HTTP ${answer.status}${text ? `: ${text.slice(0, 300)}` : ''}`,
      details: [{ path: '', message: `upstream status ${answer.status}` }],
    });
  }
  context.metrics.upstreamRequests.inc({ result: 'ok' });
  const parsed = text === '' ? undefined : safeParseJson(text);
  const data: JsonValue = parsed === undefined ? null : parsed.ok ? parsed.value : text;
  const requested = headers[RESPONSE_STYPE_HEADER.toLowerCase()];
  const declared =
    answer.headers.get(STYPE_HEADER) ?? (typeof requested === 'string' ? requested : undefined);
  if (!declared) return { data };
  let verdict: ReturnType<CallRouteContext['engine']['inspect']>;
  try {
    verdict = context.engine.inspect(declared, data, {
      allowUnknown: context.mode === 'transparent',
    });
  } catch (error) {
    if (!MplError.isInstance(error)) throw error;
    return new UpstreamError({
      message: `The upstream answered with SType ${declared}, which this proxy cannot check: ${error.message}`,
      details: error.details,
    });
  }
  const check = {
    stype: verdict.stype,
    valid: verdict.accepted,
    sem_hash: verdict.semHash,
    errors: verdict.errors,
  };
  if (!verdict.accepted && context.mode === 'strict') {
    context.metrics.upstreamRequests.inc({ result: 'invalid' });
    const reason = context.engine.rejection(verdict);
    return new UpstreamError({
      message: `The upstream's answer does not conform to its SType ${verdict.stype}: ${reason.message}`,
      details: reason.details,
    });
  }
  return { data, check };
}
