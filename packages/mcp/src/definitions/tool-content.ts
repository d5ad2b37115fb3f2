import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type FileItem,
  type ImageItem,
  isJsonObject,
  isToolOutput,
  type JsonObject,
  type JsonValue,
  type MediaLists,
  safeParseJson,
  type ToolOutput,
  toolOutput,
} from '@mtpx/protocol';

/**
 * `_meta` key marking a result whose one text block is the JSON text of a non-object
 * output (a number, an array, …), so an MTPX client reads back the value, not a string.
 */
export const JSON_OUTPUT_META_KEY = 'dev.mtpx/output';

type ContentBlock = CallToolResult['content'][number];

/**
 * A tool's output as an MCP tool result: text (the string itself, or the JSON text), the
 * object itself as `structuredContent`, and a ToolOutput's media as image / audio /
 * resource blocks.
 */
export function outputToCallToolResult(output: unknown): CallToolResult {
  const media: MediaLists = isToolOutput(output) ? output : {};
  const value = (isToolOutput(output) ? output.content : output) as JsonValue | undefined;
  const content: ContentBlock[] = [];
  const result: CallToolResult = { content };
  if (typeof value === 'string') {
    content.push({ type: 'text', text: value });
  } else if (value !== undefined) {
    content.push({ type: 'text', text: JSON.stringify(value) });
    if (isJsonObject(value)) result.structuredContent = value;
    else result._meta = { [JSON_OUTPUT_META_KEY]: 'json' };
  }
  content.push(...mediaToContent(media));
  return result;
}

/** A failed call as an MCP tool result the model can read (`isError: true`). */
export function errorToCallToolResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function mediaToContent(media: MediaLists): ContentBlock[] {
  const blocks: ContentBlock[] = [];
  for (const image of media.images ?? []) {
    blocks.push(inlineOrLink('image', image, image.alt_text));
  }
  for (const audio of media.audios ?? []) blocks.push(inlineOrLink('audio', audio));
  for (const video of media.videos ?? []) blocks.push(inlineOrLink('resource', video));
  for (const file of media.files ?? []) blocks.push(inlineOrLink('resource', file, file.name));
  return blocks;
}

function inlineOrLink(
  kind: 'image' | 'audio' | 'resource',
  item: { url?: string; data?: string; mime_type?: string; path?: string },
  name?: string,
): ContentBlock {
  const mimeType = item.mime_type ?? 'application/octet-stream';
  const uri = item.url ?? (item.path === undefined ? undefined : `file://${item.path}`);
  if (item.data !== undefined && kind !== 'resource')
    return { type: kind, data: item.data, mimeType };
  if (item.data !== undefined) {
    return {
      type: 'resource',
      resource: { uri: uri ?? `data:${mimeType}`, mimeType, blob: item.data },
    };
  }
  return {
    type: 'resource_link',
    uri: uri ?? '',
    name: name ?? uri ?? 'attachment',
    mimeType,
  };
}

/** The parts of an MCP tool result a client reads (v1 and v2 results have them alike). */
export interface McpToolResultLike {
  content?: Array<Record<string, unknown>>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * An MCP tool result as an MTP output: `structuredContent` when there is one, else the
 * text (parsed back to its value when an MTPX server marked it as JSON); images, audio and
 * resources become a ToolOutput's media.
 */
export function callToolResultToOutput(result: McpToolResultLike): JsonValue | ToolOutput {
  const blocks = result.content ?? [];
  const text = blocks
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string)
    .join('\n');
  let value: JsonValue = text;
  if (result.structuredContent !== undefined) {
    value = result.structuredContent as JsonObject;
  } else if (result._meta?.[JSON_OUTPUT_META_KEY] === 'json') {
    const parsed = safeParseJson(text);
    if (parsed.ok) value = parsed.value;
  }
  const images: ImageItem[] = [];
  const audios: NonNullable<MediaLists['audios']> = [];
  const files: FileItem[] = [];
  for (const block of blocks) {
    if (block.type === 'image' && typeof block.data === 'string') {
      images.push({ data: block.data, mime_type: String(block.mimeType ?? '') });
    } else if (block.type === 'audio' && typeof block.data === 'string') {
      audios.push({ data: block.data, mime_type: String(block.mimeType ?? '') });
    } else if (block.type === 'resource_link' && typeof block.uri === 'string') {
      files.push({
        url: block.uri,
        name: String(block.name ?? block.uri),
        mime_type: mimeOf(block),
      });
    } else if (block.type === 'resource' && isJsonObject(block.resource as JsonValue)) {
      files.push(embeddedResourceFile(block.resource as Record<string, unknown>));
    }
  }
  if (images.length + audios.length + files.length === 0) return value;
  return toolOutput({
    content: value,
    ...(images.length > 0 && { images }),
    ...(audios.length > 0 && { audios }),
    ...(files.length > 0 && { files }),
  });
}

function embeddedResourceFile(resource: Record<string, unknown>): FileItem {
  const url = typeof resource.uri === 'string' ? resource.uri : undefined;
  const data =
    typeof resource.blob === 'string'
      ? resource.blob
      : typeof resource.text === 'string'
        ? Buffer.from(resource.text).toString('base64')
        : '';
  return { ...(url !== undefined && { url }), data, mime_type: mimeOf(resource) };
}

function mimeOf(item: Record<string, unknown>): string {
  return typeof item.mimeType === 'string' ? item.mimeType : 'application/octet-stream';
}
