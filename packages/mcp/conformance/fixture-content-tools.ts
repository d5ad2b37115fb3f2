/**
 * The content tools of the conformance suite's `tools-call-*` scenarios: plain executor
 * tools, served as any MTP tool is.
 */
import { type AnyTool, defineTool, ToolExecutionError } from '@mtpx/executor';
import { toolOutput } from '@mtpx/protocol';
import { z } from 'zod';
import { base64, RED_PIXEL_PNG, SILENT_WAV } from './fixture-media';

const none = z.object({});

/** Text, image, audio, embedded resource, mixed content, an error. */
export function contentTools(): AnyTool[] {
  return [
    defineTool({
      name: 'test_simple_text',
      description: 'Returns a simple text response.',
      input_schema: none,
      execute: () => 'This is a simple text response for testing.',
    }),
    defineTool({
      name: 'test_image_content',
      description: 'Returns an image.',
      input_schema: none,
      execute: () =>
        toolOutput({
          content: 'A red pixel.',
          images: [{ data: RED_PIXEL_PNG, mime_type: 'image/png' }],
        }),
    }),
    defineTool({
      name: 'test_audio_content',
      description: 'Returns an audio clip.',
      input_schema: none,
      execute: () =>
        toolOutput({
          content: 'A silent clip.',
          audios: [{ data: SILENT_WAV, mime_type: 'audio/wav' }],
        }),
    }),
    defineTool({
      name: 'test_embedded_resource',
      description: 'Returns an embedded resource.',
      input_schema: none,
      execute: () =>
        toolOutput({
          content: 'An embedded resource:',
          files: [
            {
              url: 'test://embedded-resource',
              mime_type: 'text/plain',
              data: base64('This is an embedded resource content.'),
            },
          ],
        }),
    }),
    defineTool({
      name: 'test_multiple_content_types',
      description: 'Returns text, an image and a resource.',
      input_schema: none,
      execute: () =>
        toolOutput({
          content: 'Multiple content types test:',
          images: [{ data: RED_PIXEL_PNG, mime_type: 'image/png' }],
          files: [
            {
              url: 'test://mixed-content-resource',
              mime_type: 'application/json',
              data: base64(JSON.stringify({ test: 'data', value: 123 })),
            },
          ],
        }),
    }),
    defineTool({
      name: 'json_schema_2020_12_tool',
      description: 'Tool with JSON Schema 2020-12 features',
      // Listed exactly as written: $defs with an $anchor, $ref, composition, if/then/else.
      input_schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        $defs: {
          address: {
            $anchor: 'addressDef',
            type: 'object',
            properties: { street: { type: 'string' }, city: { type: 'string' } },
          },
        },
        properties: {
          name: { type: 'string' },
          address: { $ref: '#/$defs/address' },
          contactMethod: { type: 'string', enum: ['phone', 'email'] },
          phone: { type: 'string' },
          email: { type: 'string' },
        },
        allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
        if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
        // biome-ignore lint/suspicious/noThenProperty: `then` is the JSON Schema keyword.
        then: { required: ['phone'] },
        else: { required: ['email'] },
        additionalProperties: false,
      },
      execute: (args: Record<string, unknown>) =>
        `Contact ${String(args.name ?? 'someone')} saved.`,
    }),
    defineTool({
      name: 'test_error_handling',
      description: 'Always fails.',
      input_schema: none,
      execute: () => {
        throw new ToolExecutionError({
          message: 'This tool intentionally returns an error for testing',
          code: 'intentional',
        });
      },
    }),
  ];
}
