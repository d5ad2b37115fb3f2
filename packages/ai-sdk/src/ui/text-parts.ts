import type { UIMessageChunk } from 'ai';

/** The text and reasoning chunks of the UI message stream. */
export type TextChunk = Extract<
  UIMessageChunk,
  {
    type:
      | 'text-start'
      | 'text-delta'
      | 'text-end'
      | 'reasoning-start'
      | 'reasoning-delta'
      | 'reasoning-end';
  }
>;

/**
 * The open text or reasoning part of a message: a new part each time the kind changes or
 * a tool call comes between, so parts keep the order the model wrote them in.
 */
export class TextParts {
  #open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  #count = 0;
  readonly #sendReasoning: boolean;

  constructor(sendReasoning: boolean) {
    this.#sendReasoning = sendReasoning;
  }

  text(runId: string, round: number, delta: string): TextChunk[] {
    return this.#delta('text', runId, round, delta);
  }

  reasoning(runId: string, round: number, delta: string): TextChunk[] {
    if (!this.#sendReasoning) return [];
    return this.#delta('reasoning', runId, round, delta);
  }

  /** Ends the open part, if any. */
  close(): TextChunk[] {
    const open = this.#open;
    if (open === undefined) return [];
    this.#open = undefined;
    return [{ type: open.kind === 'text' ? 'text-end' : 'reasoning-end', id: open.id }];
  }

  #delta(kind: 'text' | 'reasoning', runId: string, round: number, delta: string): TextChunk[] {
    const out: TextChunk[] = [];
    if (this.#open?.kind !== kind) {
      out.push(...this.close());
      this.#count += 1;
      const id = `${runId}:${round}:${kind}:${this.#count}`;
      this.#open = { kind, id };
      out.push({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id });
    }
    const id = this.#open?.id ?? '';
    out.push(
      kind === 'text' ? { type: 'text-delta', id, delta } : { type: 'reasoning-delta', id, delta },
    );
    return out;
  }
}
