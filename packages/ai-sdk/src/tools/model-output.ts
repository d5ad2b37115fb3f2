import { ToolExecutionError } from '@mtpx/executor';
import { type ImageItem, type JsonValue, type ToolOutput, toolOutput } from '@mtpx/protocol';

/**
 * The AI SDK's `ToolResultOutput` (what `toModelOutput` returns), in the shapes this
 * package reads. Anything else is passed through as JSON.
 */
type ModelOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: JsonValue }
  | { type: 'error-text'; value: string }
  | { type: 'error-json'; value: JsonValue }
  | { type: 'execution-denied'; reason?: string }
  | { type: 'content'; value: ContentPart[] };

type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image-data' | 'media' | 'file-data'; data: string; mediaType: string }
  | { type: 'image-url' | 'file-url'; url: string; mediaType?: string }
  | { type: string; [key: string]: unknown };

/**
 * What an MTPX tool returns for an AI SDK tool's `toModelOutput` result: the model reads
 * it, and `$ref`s resolve to it, so a reference names what the model saw. Text becomes a
 * string, JSON stays JSON, `content` parts become text plus images; `error-*` and
 * `execution-denied` fail the call with that text.
 */
export function fromModelOutput(toolName: string, output: unknown): JsonValue | ToolOutput {
  if (typeof output !== 'object' || output === null || !('type' in output)) {
    return (output ?? null) as JsonValue;
  }
  const modelOutput = output as ModelOutput;
  switch (modelOutput.type) {
    case 'text':
    case 'json':
      return modelOutput.value;
    case 'error-text':
      throw new ToolExecutionError({ message: modelOutput.value });
    case 'error-json':
      throw new ToolExecutionError({ message: JSON.stringify(modelOutput.value) });
    case 'execution-denied':
      throw new ToolExecutionError({
        code: 'denied',
        message: modelOutput.reason ?? `The tool "${toolName}" was not run: execution denied.`,
      });
    case 'content':
      return fromContentParts(modelOutput.value);
    default:
      return output as JsonValue;
  }
}

function fromContentParts(parts: ContentPart[]): ToolOutput {
  const texts: string[] = [];
  const images: ImageItem[] = [];
  for (const part of parts) {
    if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
    else if (
      (part.type === 'image-data' || part.type === 'media' || part.type === 'file-data') &&
      typeof part.data === 'string' &&
      typeof part.mediaType === 'string' &&
      part.mediaType.startsWith('image/')
    ) {
      images.push({ data: part.data, mime_type: part.mediaType });
    } else if (part.type === 'image-url' && typeof part.url === 'string') {
      images.push({
        url: part.url,
        ...(typeof part.mediaType === 'string' ? { mime_type: part.mediaType } : {}),
      });
    }
  }
  return toolOutput({ content: texts.join('\n'), ...(images.length > 0 ? { images } : {}) });
}
