// `pnpm --filter ai-sdk-chat start [-- --provider openai --model gpt-5-mini --port 3000]`
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { serveChat } from './chat-server';
import { type ModelSource, OFFLINE_QUESTION, offlineModels, openAIModels } from './models';

const { values } = parseArgs({
  // `pnpm start -- --port 3001` hands the script a leading `--`.
  args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--')),
  options: {
    provider: { type: 'string', default: 'offline' },
    model: { type: 'string', default: 'gpt-5-mini' },
    port: { type: 'string', default: '3000' },
  },
});
const provider = values.provider ?? 'offline';
if (provider !== 'offline' && provider !== 'openai') {
  console.error(`--provider is offline (the default) or openai, not ${provider}.`);
  process.exit(2);
}
let models: ModelSource;
try {
  models = provider === 'openai' ? openAIModels(values.model ?? 'gpt-5-mini') : offlineModels();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(2);
}
const server = await serveChat({
  models,
  config: {
    label: provider === 'openai' ? `openai ${values.model}` : 'offline (scripted model)',
    question: OFFLINE_QUESTION,
  },
  staticDir: join(import.meta.dirname, '..', '..', 'dist'),
  port: Number(values.port),
});
console.log(`ai-sdk-chat on ${server.url} (${provider})`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close().then(() => process.exit(0));
  });
}
