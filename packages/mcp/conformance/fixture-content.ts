/** The prompts, resources and the resource template the suite's scenarios read by name. */
import {
  defineMcpPrompt,
  defineMcpResource,
  defineMcpResourceTemplate,
  type McpPromptDefinition,
  type McpResourceDefinition,
  type McpResourceTemplate,
} from '@mtpx/mcp';
import { RED_PIXEL_PNG } from './fixture-media';

export const prompts: McpPromptDefinition[] = [
  defineMcpPrompt({
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments.',
    get: () => [{ role: 'user', content: 'This is a simple prompt for testing.' }],
  }),
  defineMcpPrompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two arguments.',
    arguments: [
      {
        name: 'arg1',
        description: 'First test argument',
        required: true,
        complete: (typed) => ['paris', 'park', 'party', 'test'].filter((v) => v.startsWith(typed)),
      },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
    get: ({ arg1, arg2 }) => [
      { role: 'user', content: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
    ],
  }),
  defineMcpPrompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds a resource.',
    arguments: [
      { name: 'resourceUri', description: 'URI of the resource to embed', required: true },
    ],
    get: ({ resourceUri }) => [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri ?? 'test://embedded',
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ],
  }),
  defineMcpPrompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image.',
    get: () => [
      { role: 'user', content: { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' } },
      { role: 'user', content: 'Please analyze the image above.' },
    ],
  }),
];

export const resources: McpResourceDefinition[] = [
  defineMcpResource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource.',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  }),
  defineMcpResource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a PNG).',
    mimeType: 'image/png',
    read: () => ({ blob: RED_PIXEL_PNG }),
  }),
  defineMcpResource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients can subscribe to.',
    mimeType: 'text/plain',
    read: () => 'Watched resource content.',
  }),
];

export const resourceTemplates: McpResourceTemplate[] = [
  defineMcpResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for one id.',
    mimeType: 'application/json',
    complete: { id: (typed) => ['123', '456'].filter((id) => id.startsWith(typed)) },
    read: (_uri, { id }) =>
      JSON.stringify({ id, templateTest: true, data: `Data for ID: ${String(id)}` }),
  }),
];
