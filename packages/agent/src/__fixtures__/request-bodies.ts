import type { RecordedRequest } from '@mtpx/providers/testing';
import { REFERENCE_INSTRUCTIONS } from '../index';

type Body = Record<string, unknown> & {
  messages?: Array<Record<string, unknown>>;
  tools?: Array<Record<string, unknown>>;
  system?: unknown;
};

const instructionsPlaceholder = '<REFERENCE_INSTRUCTIONS>';

function shortenSystem(text: unknown): unknown {
  return typeof text === 'string' ? text.replace(REFERENCE_INSTRUCTIONS, instructionsPlaceholder) : text;
}

/**
 * A recorded request body for a snapshot: the built-in instructions shortened to a
 * placeholder, and each tool reduced to its wire name (one test snapshots whole tools).
 */
export function compactBody(request: RecordedRequest | undefined): Body {
  const body = { ...(request?.body as Body) };
  if (body.messages !== undefined) {
    body.messages = body.messages.map((message) =>
      message.role === 'system' ? { ...message, content: shortenSystem(message.content) } : message,
    );
  }
  if (Array.isArray(body.system)) {
    body.system = body.system.map((block: Record<string, unknown>) => ({
      ...block,
      text: shortenSystem(block.text),
    }));
  } else if (body.system !== undefined) {
    body.system = shortenSystem(body.system);
  }
  if (body.tools !== undefined) {
    body.tools = body.tools.map((tool) => {
      const fn = tool.function as { name?: unknown } | undefined;
      return (fn?.name ?? tool.name) as Record<string, unknown>;
    });
  }
  return body;
}
