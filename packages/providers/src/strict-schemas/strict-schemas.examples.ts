// Type-checked examples shown in the TSDoc of the strict-schema files (scripts/docs/examples.mjs).
import { anthropicStrictSchemaIssues } from './anthropic-strict-schema';
import { dropNullOptionals, openAIStrictParameters } from './openai-strict-parameters';
import { openAIStrictSchemaIssues } from './openai-strict-schema';

export function openAIStrictSchemaIssuesExample() {
  //#region openAIStrictSchemaIssues
  openAIStrictSchemaIssues({ type: 'object', properties: { a: { type: 'number' } } });
  // ['#: an object must set "additionalProperties": false', '#: every property must be required (missing: a)']
  //#endregion openAIStrictSchemaIssues
}

export function anthropicStrictSchemaIssuesExample() {
  //#region anthropicStrictSchemaIssues
  anthropicStrictSchemaIssues({ type: 'object', properties: {}, additionalProperties: false });
  // { issues: [], cost: { optionalParameters: 0, unionParameters: 0 } }
  //#endregion anthropicStrictSchemaIssues
}

export function openAIStrictParametersExample() {
  //#region openAIStrictParameters
  openAIStrictParameters({ type: 'object', properties: { q: { type: 'string' } } })?.schema;
  // { type: 'object', properties: { q: { type: ['string', 'null'] } }, required: ['q'], additionalProperties: false }
  //#endregion openAIStrictParameters
}

export function dropNullOptionalsExample() {
  //#region dropNullOptionals
  const strict = openAIStrictParameters({ type: 'object', properties: { q: { type: 'string' } } });
  if (strict !== undefined) dropNullOptionals({ q: null }, strict); // {}
  //#endregion dropNullOptionals
}
