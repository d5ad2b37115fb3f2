// Type-checked examples shown in the TSDoc of `server.ts` (scripts/docs/examples.mjs).
import { MplClient } from '@mtpx/mpl';
import { startProxy } from './server';

export async function startProxyExample() {
  //#region startProxy
  const proxy = await startProxy({ port: 0, dataDir: '/tmp/mpl' });
  const client = new MplClient(proxy.url);
  console.log(await client.health());
  await proxy.close();
  //#endregion startProxy
}
