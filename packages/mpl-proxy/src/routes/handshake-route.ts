import { type HandshakeSelect, InvalidRequestError } from '@mtpx/mpl';
import { isJsonObject, safeParseJson } from '@mtpx/protocol';
import { type Exchange, sendError, sendJson } from '../http/exchange';
import type { CallRouteContext } from './call-context';
import { statusOf } from './error-status';

/**
 * `POST /.well-known/ai-alpn`: answers an `ai-alpn-hello` with the STypes both sides know
 * and the first wanted profile the proxy has (else its default).
 */
export async function handleHandshake(
  context: CallRouteContext,
  exchange: Exchange,
): Promise<number> {
  const body = await exchange.body(context.maxBodyBytes);
  if (!body.ok) {
    const status = statusOf(body.error.code);
    sendError(exchange, status, body.error);
    return status;
  }
  const parsed = safeParseJson(body.text);
  const hello = parsed.ok && isJsonObject(parsed.value) ? parsed.value : undefined;
  if (
    !hello ||
    !Array.isArray(hello.stypes) ||
    !hello.stypes.every((item) => typeof item === 'string')
  ) {
    sendError(
      exchange,
      400,
      new InvalidRequestError({
        message:
          'An ai-alpn-hello needs { "type": "ai-alpn-hello", "version": "1.0", "stypes": [ … ] }',
      }),
    );
    return 400;
  }
  context.metrics.handshakes.inc();
  const wanted = Array.isArray(hello.qom_profiles) ? hello.qom_profiles : [];
  const profile = wanted.find(
    (name) => typeof name === 'string' && context.engine.profiles.has(name),
  );
  const select: HandshakeSelect = {
    type: 'ai-alpn-select',
    common_stypes: (hello.stypes as string[]).filter((id) => context.engine.registry.has(id)),
    selected_profile: typeof profile === 'string' ? profile : context.engine.defaultProfile,
    extensions: { mode: context.mode, hash_algorithm: context.engine.hashAlgorithm },
  };
  sendJson(exchange, 200, select);
  return 200;
}
