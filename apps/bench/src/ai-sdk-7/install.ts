// `pnpm --filter bench run install-tools`: installs row 9's AI SDK 7 and Node 22 into
// .tools/bench-ai-sdk-7 ahead of a run (CI does, before its tests), so no timed run or test
// waits on the registry. A run installs them itself when they are missing.
import { aiSdk7Directory } from './ai-sdk-7-modules';

console.log(await aiSdk7Directory());
