// A provider chosen at run time, as a `--provider` flag would choose it:
//   GROQ_API_KEY=… pnpm exec tsx examples/provider-by-name.ts groq llama-3.3-70b-versatile
// Only the chosen adapter's SDK is loaded; a missing key is one line naming the variable.
import { createProvider, isProviderName, ProviderError, providerNames } from '@mtpx/providers';

const [name = 'groq', model = 'llama-3.3-70b-versatile'] = process.argv.slice(2);
if (!isProviderName(name)) {
  console.error(`Unknown provider "${name}". Use one of: ${providerNames.join(', ')}.`);
  process.exit(2);
}

try {
  const provider = await createProvider({ provider: name, model });
  const turn = await provider.generate({
    messages: [{ role: 'user', content: 'Say hello in five words.' }],
    tools: [],
  });
  console.log(turn.message.content);
} catch (error) {
  if (!ProviderError.isInstance(error)) throw error;
  console.error(error.message);
  process.exitCode = error.code === 'missing_api_key' ? 2 : 1;
}
