/** One Server-Sent Event. @internal */
export interface ServerSentEvent {
  event: string;
  data: string;
}

/**
 * Reads Server-Sent Events from a byte stream (the WHATWG format: `event:` and `data:`
 * lines, a blank line ends an event, `:` lines are comments).
 *
 * @internal
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<ServerSentEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = 'message';
  let data: string[] = [];
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline = buffer.search(/\r\n|\n|\r/);
    while (newline !== -1) {
      const line = buffer.slice(0, newline);
      const width = buffer.startsWith('\r\n', newline) ? 2 : 1;
      buffer = buffer.slice(newline + width);
      if (line === '') {
        if (data.length > 0) yield { event, data: data.join('\n') };
        event = 'message';
        data = [];
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' ')) value = value.slice(1);
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
      }
      newline = buffer.search(/\r\n|\n|\r/);
    }
  }
}
