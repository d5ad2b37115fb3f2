import type { MtpxCallData, MtpxEdgeData } from '@mtpx/ai-sdk';
import type { DynamicToolUIPart, ToolUIPart } from 'ai';

const json = (value: unknown) => JSON.stringify(value, null, 2);

/** A tool call: its name and state, its input, then its output or error. */
export function ToolCard({
  name,
  part,
  call,
  inputsFrom,
}: {
  name: string;
  part: ToolUIPart | DynamicToolUIPart;
  call: MtpxCallData | undefined;
  inputsFrom: MtpxEdgeData[];
}) {
  const preliminary = 'preliminary' in part && part.preliminary === true;
  return (
    <section
      className={`tool ${part.state}`}
      data-testid="tool"
      data-tool={name}
      data-state={part.state}
    >
      <header>
        <strong>{name}</strong>
        <span className="state">{preliminary ? 'running…' : part.state}</span>
        {call?.startedDuringStream === true && (
          <span className="badge" title="Started while the model was still writing">
            eager
          </span>
        )}
        {call?.held === true && (
          <span className="badge" title={call.heldReason}>
            held until the turn ended
          </span>
        )}
        {inputsFrom.map((edge) => (
          <span key={edge.from} className="badge ref" data-testid="ref">
            input from {edge.from}
            {edge.path ?? ''}
          </span>
        ))}
      </header>
      {part.input !== undefined && (
        <pre className="input" data-testid="tool-input">
          {json(part.input)}
        </pre>
      )}
      {part.state === 'output-available' && (
        <pre className="output" data-testid="tool-output">
          {json(part.output)}
        </pre>
      )}
      {part.state === 'output-error' && (
        <pre className="output error" data-testid="tool-error">
          {part.errorText}
        </pre>
      )}
    </section>
  );
}
