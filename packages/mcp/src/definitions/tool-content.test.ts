import { isToolOutput, toolOutput } from '@mtpx/protocol';
import { describe, expect, it } from 'vitest';
import {
  callToolResultToOutput,
  errorToCallToolResult,
  JSON_OUTPUT_META_KEY,
  outputToCallToolResult,
} from './tool-content';

describe('outputToCallToolResult', () => {
  it('sends a string as text', () => {
    expect(outputToCallToolResult('Hello')).toEqual({ content: [{ type: 'text', text: 'Hello' }] });
  });

  it('sends an object as JSON text and as structuredContent', () => {
    expect(outputToCallToolResult({ booked: true })).toEqual({
      content: [{ type: 'text', text: '{"booked":true}' }],
      structuredContent: { booked: true },
    });
  });

  it('marks other JSON values so an MTPX client reads the value back', () => {
    expect(outputToCallToolResult(12)).toEqual({
      content: [{ type: 'text', text: '12' }],
      _meta: { [JSON_OUTPUT_META_KEY]: 'json' },
    });
    expect(outputToCallToolResult(undefined)).toEqual({ content: [] });
  });

  it("turns a ToolOutput's media into image, audio and resource blocks", () => {
    const result = outputToCallToolResult(
      toolOutput({
        content: 'A cat',
        images: [
          { data: 'aW1n', mime_type: 'image/png' },
          { url: 'https://example.com/cat.png', mime_type: 'image/png', alt_text: 'cat' },
        ],
        audios: [{ data: 'YXVk', mime_type: 'audio/wav' }],
        files: [{ path: '/tmp/report.pdf', name: 'report.pdf', mime_type: 'application/pdf' }],
        videos: [{ data: 'dmlk', mime_type: 'video/mp4' }],
      }),
    );
    expect(result.content).toEqual([
      { type: 'text', text: 'A cat' },
      { type: 'image', data: 'aW1n', mimeType: 'image/png' },
      {
        type: 'resource_link',
        uri: 'https://example.com/cat.png',
        name: 'cat',
        mimeType: 'image/png',
      },
      { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' },
      {
        type: 'resource',
        resource: { uri: 'data:video/mp4', mimeType: 'video/mp4', blob: 'dmlk' },
      },
      {
        type: 'resource_link',
        uri: 'file:///tmp/report.pdf',
        name: 'report.pdf',
        mimeType: 'application/pdf',
      },
    ]);
  });

  it('reports failures as isError results', () => {
    expect(errorToCallToolResult('boom')).toEqual({
      content: [{ type: 'text', text: 'boom' }],
      isError: true,
    });
  });
});

describe('callToolResultToOutput', () => {
  it.each([
    ['a string', 'Hello'],
    ['an object', { booked: true, party: 2 }],
    ['a number', 12],
    ['an array', [1, 'two']],
    ['null', null],
  ])('reads back %s an MTPX server sent', (_case, value) => {
    expect(callToolResultToOutput(outputToCallToolResult(value) as never)).toEqual(value);
  });

  it('reads the text of a foreign server as a string, joining blocks', () => {
    expect(
      callToolResultToOutput({
        content: [
          { type: 'text', text: '12' },
          { type: 'text', text: 'more' },
        ],
      }),
    ).toBe('12\nmore');
  });

  it('keeps images, audio and resources as media', () => {
    const output = callToolResultToOutput({
      content: [
        { type: 'text', text: 'see attached' },
        { type: 'image', data: 'aW1n', mimeType: 'image/png' },
        { type: 'audio', data: 'YXVk', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'https://example.com/a.pdf', name: 'a.pdf' },
        { type: 'resource', resource: { uri: 'mem://note', mimeType: 'text/plain', text: 'hi' } },
      ],
    });
    expect(isToolOutput(output)).toBe(true);
    expect(output).toEqual({
      content: 'see attached',
      images: [{ data: 'aW1n', mime_type: 'image/png' }],
      audios: [{ data: 'YXVk', mime_type: 'audio/wav' }],
      files: [
        { url: 'https://example.com/a.pdf', name: 'a.pdf', mime_type: 'application/octet-stream' },
        { url: 'mem://note', data: 'aGk=', mime_type: 'text/plain' },
      ],
    });
  });
});
