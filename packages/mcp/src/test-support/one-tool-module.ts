/** Test support: a module exporting `tools` with one tool, as the README's `tools.ts`. */
import { testTools } from './tools';

export const name = 'one-tool';
export const tools = testTools.slice(0, 1);
