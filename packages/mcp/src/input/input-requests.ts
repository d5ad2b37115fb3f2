import { inputRequired as sdkInputRequired } from '@modelcontextprotocol/server';
import type { JsonObject } from '@mtpx/protocol';
import type { z } from 'zod';

/**
 * The restricted JSON Schema a form elicitation asks with: a flat object whose properties
 * are strings (optionally with `format` `email` | `uri` | `date` | `date-time`), numbers,
 * integers, booleans or enums.
 */
export interface ElicitationSchema {
  type: 'object';
  properties: Record<string, JsonObject>;
  required?: string[];
  [key: string]: unknown;
}

/** Ask the user to fill in a form (`elicitation/create`, form mode). */
export interface FormElicitationRequest {
  method: 'elicitation/create';
  params: { mode: 'form'; message: string; requestedSchema: ElicitationSchema };
}

/** Send the user to a URL to do something out of band (`elicitation/create`, URL mode). */
export interface UrlElicitationRequest {
  method: 'elicitation/create';
  params: { mode: 'url'; message: string; url: string };
}

/** One message of a sampling request. */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string } | JsonObject | JsonObject[];
}

/** What a sampling request carries (`maxTokens` is required by MCP). */
export interface SamplingRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  modelPreferences?: JsonObject;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
}

/** Ask the client's model for a completion (`sampling/createMessage`). */
export interface SamplingRequest {
  method: 'sampling/createMessage';
  params: SamplingRequestParams;
}

/** Ask the client for its roots (`roots/list`). */
export interface RootsRequest {
  method: 'roots/list';
  params?: JsonObject;
}

/** One request a round asks the client to fulfil, in its MCP wire shape. */
export type InputRequest =
  | FormElicitationRequest
  | UrlElicitationRequest
  | SamplingRequest
  | RootsRequest;

/** The requests of one round, by the keys their responses come back under. */
export type InputRequests = Record<string, InputRequest>;

/**
 * A form elicitation: asks the user for the fields of `schema`. `schema` is the restricted
 * elicitation JSON Schema, or a zod object of primitive fields (converted to it; a shape
 * the wire cannot express throws a `TypeError` here, before anything is sent).
 *
 * @example
 * ```ts source="../mcp.examples.ts#formElicitation"
 * formElicitation('Which date?', {
 *   type: 'object',
 *   properties: { date: { type: 'string', format: 'date' } },
 *   required: ['date'],
 * });
 * ```
 */
export function formElicitation(
  message: string,
  schema: ElicitationSchema | z.ZodObject,
): FormElicitationRequest {
  if (isZodSchema(schema)) {
    const built = sdkInputRequired.elicit({ message, requestedSchema: schema });
    return built as unknown as FormElicitationRequest;
  }
  return {
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: schema },
  };
}

/**
 * A URL elicitation: asks the user to open `url` (to sign in, pay, approve) and come back.
 * The client answers `accept` once the user has gone there; the server learns the outcome
 * out of band.
 */
export function urlElicitation(message: string, url: string): UrlElicitationRequest {
  return { method: 'elicitation/create', params: { mode: 'url', message, url } };
}

/**
 * A sampling request: asks the client's model for one completion.
 *
 * @example
 * ```ts source="../mcp.examples.ts#sampling"
 * sampling({
 *   messages: [{ role: 'user', content: { type: 'text', text: 'Name a colour' } }],
 *   maxTokens: 20,
 * });
 * ```
 */
export function sampling(params: SamplingRequestParams): SamplingRequest {
  return { method: 'sampling/createMessage', params };
}

/** A roots request: asks the client which directories or URIs it exposes. */
export function roots(): RootsRequest {
  return { method: 'roots/list' };
}

/** The kind of an input request, as the capability it needs. @internal */
export type InputRequestKind = 'form_elicitation' | 'url_elicitation' | 'sampling' | 'roots';

/** Which kind of request this is. @internal */
export function inputRequestKind(request: InputRequest): InputRequestKind {
  switch (request.method) {
    case 'elicitation/create':
      return request.params.mode === 'url' ? 'url_elicitation' : 'form_elicitation';
    case 'sampling/createMessage':
      return 'sampling';
    case 'roots/list':
      return 'roots';
  }
}

function isZodSchema(schema: unknown): schema is z.ZodObject {
  return typeof schema === 'object' && schema !== null && '~standard' in schema;
}
