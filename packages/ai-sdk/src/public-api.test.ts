import { expect, it } from 'vitest';
import { exportedNames } from '../../../scripts/api/exported-names.mjs';

it('exports exactly its public surface (a change here is a reviewed API change)', () => {
  expect(exportedNames(new URL('./index.ts', import.meta.url))).toEqual([
    'type AiSdkCallSettings',
    'type AiSdkLanguageModel',
    'type AiSdkTools',
    'type AiSdkToolSettings',
    'type AiSdkToolWithoutExecute',
    'fromAiSdkTools',
    'type FromAiSdkToolsOptions',
    'fromLanguageModel',
    'type FromLanguageModelOptions',
    'type MtpxCallData',
    'type MtpxDataTypes',
    'type MtpxEdgeData',
    'type MtpxRunData',
    'type MtpxUIMessage',
    'type MtpxUIMessageChunk',
    'PRELIMINARY_OUTPUT_MESSAGE',
    'toUIMessageStream',
    'type ToUIMessageStreamOptions',
    'toUIMessageStreamResponse',
    'type ToUIMessageStreamResponseOptions',
    'type UIChunkWriterOptions',
    'VERSION',
  ]);
});
