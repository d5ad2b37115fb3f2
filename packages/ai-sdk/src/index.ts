/**
 * `@mtpx/ai-sdk`: bring a Vercel AI SDK app to MTPX — its models, its tools and its chat UI.
 * @packageDocumentation
 */
export { VERSION } from './version';
