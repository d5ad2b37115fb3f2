import { useChat } from '@ai-sdk/react';
import type { MtpxUIMessage } from '@mtpx/ai-sdk';
import { type FormEvent, useEffect, useState } from 'react';
import { MessageParts } from './message-parts';

interface Config {
  label: string;
  question: string;
}

/** The chat page: `useChat` as any AI SDK app uses it, posting to /api/chat. */
export function Chat() {
  const { messages, sendMessage, status, error } = useChat<MtpxUIMessage>();
  const [input, setInput] = useState('');
  const [config, setConfig] = useState<Config | undefined>();

  useEffect(() => {
    fetch('/api/config')
      .then((response) => response.json() as Promise<Config>)
      .then(setConfig)
      .catch(() => undefined);
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '') return;
    sendMessage({ text: input });
    setInput('');
  };

  return (
    <main className="chat">
      <header>
        <h1>AI SDK chat on MTPX</h1>
        <p className="model" data-testid="model">
          {config?.label ?? '…'}
        </p>
      </header>
      <section className="messages" data-testid="messages">
        {messages.map((message) => (
          <article key={message.id} className={`message ${message.role}`} data-role={message.role}>
            <MessageParts message={message} />
          </article>
        ))}
      </section>
      <p className="status" data-testid="status">
        {status}
      </p>
      {error !== undefined && (
        <p className="error" data-testid="error">
          {error.message}
        </p>
      )}
      <form onSubmit={submit}>
        <input
          aria-label="Message"
          value={input}
          placeholder="Ask something…"
          onChange={(event) => setInput(event.target.value)}
        />
        <button type="submit" disabled={status === 'streaming' || status === 'submitted'}>
          Send
        </button>
        {config !== undefined && (
          <button
            type="button"
            className="suggestion"
            data-testid="suggested"
            disabled={status === 'streaming' || status === 'submitted'}
            onClick={() => sendMessage({ text: config.question })}
          >
            Ask: {config.question}
          </button>
        )}
      </form>
    </main>
  );
}
