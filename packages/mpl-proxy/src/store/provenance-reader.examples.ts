import { verifyChain } from '@mtpx/mpl';
import { openProvenanceReader } from './provenance-reader';

export async function openProvenanceReaderExample(): Promise<void> {
  //#region open-provenance-reader
  const reader = openProvenanceReader('/var/lib/mpl');
  try {
    const chain = await reader.chain('plan_1', { payloads: true });
    console.log(verifyChain(chain).valid);
  } finally {
    await reader.close();
  }
  //#endregion open-provenance-reader
}
