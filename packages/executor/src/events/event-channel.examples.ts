// Type-checked examples shown in the TSDoc of `event-channel.ts` (scripts/docs/examples.mjs).
import { EventChannel } from '@mtpx/executor/internal';

export async function eventChannelExample() {
  //#region EventChannel
  const channel = new EventChannel<string>();
  channel.push('call-started');
  channel.push('call-finished');
  channel.close();
  for await (const event of channel) console.log(event); // call-started, call-finished
  //#endregion EventChannel
}
