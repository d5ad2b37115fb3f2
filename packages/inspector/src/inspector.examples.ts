// Type-checked examples shown in the TSDoc of the Inspector's entry points (scripts/docs/examples.mjs).
import { InspectorError } from './inspector-error';
import { inspectorRunUrl } from './links';
import { readRun } from './record/run-store';

export async function inspectorErrorExample(showList: () => void): Promise<void> {
  //#region InspectorError
  try {
    await readRun('./runs', 'run_1');
  } catch (error) {
    if (InspectorError.isInstance(error) && error.code === 'run_not_found') showList();
  }
  //#endregion InspectorError
}

export function inspectorRunUrlExample(): string {
  //#region inspectorRunUrl
  const url = inspectorRunUrl('http://127.0.0.1:4319', 'run_1'); // 'http://127.0.0.1:4319/runs/run_1'
  //#endregion inspectorRunUrl
  return url;
}
