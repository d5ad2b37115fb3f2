import type { Message, ProviderRequest, ToolMessage } from '@mtpx/protocol';
import type { ScriptedTurn } from '@mtpx/providers/testing';

/** The seed's question, with independent file work beside the `$ref` chain. */
export const QUESTION =
  'What is 15 + (4 × (18 − 6)) / 3? Also back up notes.txt to backup/notes.txt and tell me what the note says.';

/** The files the file tools see (in a temporary folder they are confined to). */
export const WORKSPACE_FILES: Readonly<Record<string, string>> = {
  'notes.txt':
    'Offsite budget, in thousands of euros: 15 + (4 × (18 − 6)) / 3.\nApproved by Ada on 2026-11-02.\n',
};

/** How the model should work; sent after the agent's built-in instructions on `$ref`. */
export const INSTRUCTIONS =
  'Use the calculator for arithmetic and the file tools for files; never compute in your head. Answer briefly.';

/**
 * The model's first answer, as a native response: SIX tool calls in ONE response. The
 * seed's chain (18 − 6, then × 4, then / 3, then 15 +, each `$ref` naming the call before
 * it) and, independent of it, a file read whose output the write takes by `$ref`.
 */
export const TOOL_ROUND: ScriptedTurn = {
  toolCalls: [
    { id: 'call_1', name: 'calculator.subtract', arguments: { a: 18, b: 6 } },
    { id: 'call_2', name: 'calculator.multiply', arguments: { a: 4, b: { $ref: 'call_1' } } },
    { id: 'call_3', name: 'calculator.divide', arguments: { a: { $ref: 'call_2' }, b: 3 } },
    { id: 'call_4', name: 'calculator.add', arguments: { a: 15, b: { $ref: 'call_3' } } },
    { id: 'call_5', name: 'file.read_file', arguments: { path: 'notes.txt' } },
    {
      id: 'call_6',
      name: 'file.write_file',
      arguments: { path: 'backup/notes.txt', content: { $ref: 'call_5' } },
    },
  ],
};

function toolMessage(messages: readonly Message[], callId: string): ToolMessage | undefined {
  return messages.find(
    (message): message is ToolMessage => message.role === 'tool' && message.tool_call_id === callId,
  );
}

/**
 * The model's second answer, written from the tool results it was sent (as a model
 * would): the sum, what became of the backup, and the note's first line.
 */
export function answerTurn(request: ProviderRequest): ScriptedTurn {
  const sum = toolMessage(request.messages, 'call_4');
  const note = toolMessage(request.messages, 'call_5');
  const backup = toolMessage(request.messages, 'call_6');
  const parts = [
    sum && !sum.is_error
      ? `15 + (4 × (18 − 6)) / 3 = ${sum.content}.`
      : `I could not compute 15 + (4 × (18 − 6)) / 3: ${sum?.content ?? 'no result'}.`,
  ];
  if (backup && !backup.is_error) parts.push('I backed up notes.txt to backup/notes.txt.');
  else parts.push(`I did not back up notes.txt (${backup?.content ?? 'no result'}).`);
  if (note && !note.is_error) parts.push(`The note says: "${note.content.split('\n')[0]}"`);
  return { text: parts.join(' ') };
}

/** The scripted model: the tool round, then the answer. */
export function scriptedTurns(request: ProviderRequest, turnIndex: number): ScriptedTurn {
  // Read from the conversation, not the turn count: a run resumed in a new process
  // (`--run`) is past its tool round although this provider has not answered before.
  const answered =
    turnIndex > 0 || request.messages.some((message) => message.role === 'assistant');
  return answered ? answerTurn(request) : TOOL_ROUND;
}
