// Type-checked example shown in the TSDoc of `serveInspector` (scripts/docs/examples.mjs).
import { serveInspector } from './inspector-server';

export async function serveInspectorExample(): Promise<void> {
  //#region serveInspector
  const inspector = await serveInspector({ dataDir: '.mtpx/runs', port: 0 });
  console.log(inspector.url);
  await inspector.close();
  //#endregion serveInspector
}
