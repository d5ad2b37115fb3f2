// Type-checked examples shown in the TSDoc of `toolkit.ts` (scripts/docs/examples.mjs).
import { type AnyTool, defineToolkit } from '@mtpx/executor';

export function defineToolkitExample(loadWeatherTools: () => Promise<AnyTool[]>) {
  //#region defineToolkit
  const weather = defineToolkit({
    name: 'weather',
    description: 'Forecasts',
    load: loadWeatherTools, // e.g. async () => (await import('./weather-tools.js')).tools
  });
  //#endregion defineToolkit
  return weather;
}
