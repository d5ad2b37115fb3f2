import { openai } from '@ai-sdk/openai';
import { createAgent } from '@mtpx/agent';
import { calculatorToolkit } from '@mtpx/executor/toolkits';
import { fromLanguageModel } from './from-language-model';

export async function example() {
  //#region fromLanguageModel
  const agent = createAgent({
    provider: fromLanguageModel(openai('gpt-5-mini')),
    tools: [calculatorToolkit()],
  });
  const output = await agent.run('What is 15 + (4 × (18 − 6)) / 3?');
  //#endregion
  return output;
}
