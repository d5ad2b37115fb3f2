import { fromJsonSchema } from '@modelcontextprotocol/server';
import type { JsonObject } from '@mtpx/protocol';
import { z } from 'zod';
import type { ElicitationSchema, InputRequest } from './input-requests';

/** The user's answer to an elicitation. `content` is present only on a form `accept`. */
export type ElicitationResponse =
  | { action: 'accept'; content?: Record<string, ElicitationValue> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** A value a form field can hold. */
export type ElicitationValue = string | number | boolean | string[];

/** The client model's answer to a sampling request. */
export interface SamplingResponse {
  role: 'user' | 'assistant';
  content: JsonObject | JsonObject[];
  model: string;
  stopReason?: string;
}

/** One root the client exposes. */
export interface Root {
  uri: string;
  name?: string;
}

/** The client's answer to a roots request. */
export interface RootsResponse {
  roots: Root[];
}

/** A validated answer to one input request. */
export type InputResponse = ElicitationResponse | SamplingResponse | RootsResponse;

const ElicitationValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

const ElicitationResponseSchema = z.discriminatedUnion('action', [
  z.looseObject({
    action: z.literal('accept'),
    content: z.record(z.string(), ElicitationValueSchema).optional(),
  }),
  z.looseObject({ action: z.literal('decline') }),
  z.looseObject({ action: z.literal('cancel') }),
]);

const ContentBlockSchema = z.looseObject({ type: z.string() });

const SamplingResponseSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([ContentBlockSchema, z.array(ContentBlockSchema)]),
  model: z.string(),
  stopReason: z.string().optional(),
});

const RootsResponseSchema = z.looseObject({
  roots: z.array(z.looseObject({ uri: z.string(), name: z.string().optional() })),
});

/** The outcome of checking one response against the request it answers. */
export type ResponseCheck = { ok: true; value: InputResponse } | { ok: false; problem: string };

/**
 * Checks an untrusted response against the request it answers: its shape for the
 * request's kind and, for an accepted form, its content against the requested schema.
 */
export function checkInputResponse(request: InputRequest, raw: unknown): ResponseCheck {
  switch (request.method) {
    case 'elicitation/create': {
      const parsed = ElicitationResponseSchema.safeParse(raw);
      if (!parsed.success) return { ok: false, problem: describeZodProblem(parsed.error) };
      const response = parsed.data;
      if (response.action !== 'accept') return { ok: true, value: { action: response.action } };
      if (request.params.mode === 'url') return { ok: true, value: { action: 'accept' } };
      const content = response.content ?? {};
      const problem = checkAgainstSchema(request.params.requestedSchema, content);
      if (problem !== undefined) return { ok: false, problem };
      return { ok: true, value: { action: 'accept', content } };
    }
    case 'sampling/createMessage': {
      const parsed = SamplingResponseSchema.safeParse(raw);
      return parsed.success
        ? { ok: true, value: parsed.data as SamplingResponse }
        : { ok: false, problem: describeZodProblem(parsed.error) };
    }
    case 'roots/list': {
      const parsed = RootsResponseSchema.safeParse(raw);
      return parsed.success
        ? { ok: true, value: { roots: parsed.data.roots.map(({ uri, name }) => root(uri, name)) } }
        : { ok: false, problem: describeZodProblem(parsed.error) };
    }
  }
}

const validators = new WeakMap<ElicitationSchema, ReturnType<typeof fromJsonSchema>>();

function checkAgainstSchema(schema: ElicitationSchema, content: unknown): string | undefined {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = fromJsonSchema(schema as Parameters<typeof fromJsonSchema>[0]);
    validators.set(schema, validator);
  }
  const outcome = validator['~standard'].validate(content);
  if (outcome instanceof Promise) return 'the requested schema validates asynchronously';
  if (outcome.issues === undefined) return undefined;
  return `the accepted content does not match the requested schema: ${outcome.issues
    .map((issue) => issue.message)
    .join('; ')}`;
}

function root(uri: string, name: string | undefined): Root {
  return name === undefined ? { uri } : { uri, name };
}

function describeZodProblem(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ` : '') + issue.message)
    .join('; ');
}

/** One entry of a round's input responses, read by kind. */
export type InputResponseView =
  | { kind: 'missing' }
  | {
      kind: 'elicitation';
      action: 'accept' | 'decline' | 'cancel';
      content?: Record<string, ElicitationValue>;
    }
  | { kind: 'sampling'; response: SamplingResponse }
  | { kind: 'roots'; roots: Root[] };

/** Reads a validated response by its shape. */
export function viewInputResponse(response: InputResponse | undefined): InputResponseView {
  if (response === undefined) return { kind: 'missing' };
  if (isElicitationResponse(response)) {
    return response.action === 'accept' && response.content !== undefined
      ? { kind: 'elicitation', action: 'accept', content: response.content }
      : { kind: 'elicitation', action: response.action };
  }
  if (isRootsResponse(response)) return { kind: 'roots', roots: response.roots };
  return { kind: 'sampling', response };
}

function isElicitationResponse(response: InputResponse): response is ElicitationResponse {
  return 'action' in response;
}

function isRootsResponse(response: InputResponse): response is RootsResponse {
  return 'roots' in response;
}

/** The text of a sampling response (its text blocks joined), or `undefined` when it has none. */
export function samplingText(response: SamplingResponse): string | undefined {
  const blocks = Array.isArray(response.content) ? response.content : [response.content];
  const texts = blocks
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => block.text as string);
  return texts.length > 0 ? texts.join('') : undefined;
}
