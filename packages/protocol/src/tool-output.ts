import { z } from 'zod';
import type { JsonValue } from './json';

const MediaItemBaseSchema = z.object({
  /** Where the media can be fetched. */
  url: z.string().optional(),
  /** The media inline, base64-encoded. */
  data: z.string().optional(),
  /** IANA media type (`image/png`). */
  mime_type: z.string().optional(),
  /** Free-form details. */
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const needsUrlOrData = (item: { url?: string | undefined; data?: string | undefined }) =>
  item.url !== undefined || item.data !== undefined;
const urlOrDataMessage = { message: 'a media item needs a `url` or inline `data`' };

/** An image a tool produced. */
export const ImageItemSchema = MediaItemBaseSchema.extend({
  /** Text alternative for people and models that cannot see it. */
  alt_text: z.string().optional(),
}).refine(needsUrlOrData, urlOrDataMessage);

/** A video a tool produced. */
export const VideoItemSchema = MediaItemBaseSchema.extend({
  duration_seconds: z.number().nonnegative().optional(),
}).refine(needsUrlOrData, urlOrDataMessage);

/** An audio clip a tool produced. */
export const AudioItemSchema = MediaItemBaseSchema.extend({
  duration_seconds: z.number().nonnegative().optional(),
  transcript: z.string().optional(),
}).refine(needsUrlOrData, urlOrDataMessage);

/** A file a tool produced. */
export const FileItemSchema = MediaItemBaseSchema.extend({
  /** File name shown to people. */
  name: z.string().optional(),
  /** Path, when the file lives on a filesystem the runtime shares. */
  path: z.string().optional(),
  size_bytes: z.number().int().nonnegative().optional(),
}).refine((item) => needsUrlOrData(item) || item.path !== undefined, {
  message: 'a file item needs a `url`, inline `data` or a `path`',
});

/** An image in a tool's output. */
export type ImageItem = z.infer<typeof ImageItemSchema>;
/** A video in a tool's output. */
export type VideoItem = z.infer<typeof VideoItemSchema>;
/** An audio clip in a tool's output. */
export type AudioItem = z.infer<typeof AudioItemSchema>;
/** A file in a tool's output. */
export type FileItem = z.infer<typeof FileItemSchema>;

/** The media lists a ToolOutput and a ToolResult may carry. */
export const MediaListsSchema = z.object({
  images: z.array(ImageItemSchema).optional(),
  videos: z.array(VideoItemSchema).optional(),
  audios: z.array(AudioItemSchema).optional(),
  files: z.array(FileItemSchema).optional(),
});

/** The media lists a ToolOutput and a ToolResult may carry. */
export type MediaLists = z.infer<typeof MediaListsSchema>;

/**
 * What a tool returns when it separates its primary output (`content`, which
 * `$ref`s resolve to) from media.
 */
export const ToolOutputSchema = MediaListsSchema.extend({
  content: z.json(),
});

/** A tool's output with media. */
export type ToolOutput = { content: JsonValue } & MediaLists;

const toolOutputMarker = Symbol.for('mtpx.tool-output');

/**
 * Marks a tool's return value as a {@link ToolOutput}, so a runtime tells it apart
 * from a plain JSON value that happens to have a `content` key.
 *
 * @example
 * ```ts source="./protocol.examples.ts#toolOutput"
 * return toolOutput({
 *   content: 'A cat',
 *   images: [{ url: 'https://example.com/cat.png', mime_type: 'image/png' }],
 * });
 * ```
 */
export function toolOutput<TOutput extends ToolOutput>(output: TOutput): TOutput {
  Object.defineProperty(output, toolOutputMarker, { value: true, enumerable: false });
  return output;
}

/** True for values made by {@link toolOutput} (from any copy of this package). */
export function isToolOutput(value: unknown): value is ToolOutput {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as Record<symbol, unknown>)[toolOutputMarker] === true
  );
}
