import { fromAiSdkTools } from '@mtpx/ai-sdk';
import { createExecutor, type ExecutorEvent } from '@mtpx/executor';
import { describe, expect, it } from 'vitest';
import { exampleTools } from './example-tools';

describe("the ten AI SDK tools of vercel/ai's examples/ai-e2e-next", () => {
  it('run unchanged through fromAiSdkTools, one taking the output of another by $ref', async () => {
    const { tools, withoutExecute } = await fromAiSdkTools(exampleTools, {
      tools: { send_email: { risk_level: 'write' }, saveNote: { risk_level: 'write' } },
    });
    expect(tools.map((tool) => tool.name)).toEqual(Object.keys(exampleTools));
    expect(tools).toHaveLength(10);
    expect(withoutExecute).toEqual([]);
    // Each spec carries the tool's own JSON Schema.
    expect(tools.find((tool) => tool.name === 'get_weather')?.input_schema).toMatchObject({
      properties: {
        location: { type: 'string', description: 'The city and state, e.g. San Francisco, CA' },
        unit: { enum: ['celsius', 'fahrenheit'] },
      },
      required: ['location'],
    });

    const events: ExecutorEvent[] = [];
    const results = await createExecutor({ tools }).executeToolCalls(
      [
        { id: 'inventory', name: 'getInventory', arguments: { productId: 'P-100' } },
        { id: 'demand', name: 'getDemand', arguments: { productId: 'P-100' } },
        { id: 'weather', name: 'get_weather', arguments: { location: 'Oslo', unit: 'celsius' } },
        { id: 'forecast', name: 'getWeatherInformation', arguments: { city: 'Oslo' } },
        { id: 'time', name: 'getLocalTime', arguments: { location: 'Oslo' } },
        { id: 'sights', name: 'cityAttractions', arguments: { city: 'Oslo' } },
        { id: 'where', name: 'currentLocation', arguments: {} },
        { id: 'search', name: 'search_files', arguments: { query: 'budget' } },
        {
          id: 'note',
          name: 'saveNote',
          arguments: { note: { $ref: 'search', $path: '/results/1' } },
        },
        {
          id: 'email',
          name: 'send_email',
          arguments: { to: 'a@example.com', subject: 'Hi', body: { $ref: 'time' } },
        },
      ],
      { onEvent: (event) => events.push(event) },
    );
    expect(results.every((result) => result.success)).toBe(true);
    const output = Object.fromEntries(results.map((result) => [result.call_id, result.output]));
    expect(output.inventory).toEqual({ productId: 'P-100', availableUnits: 42 });
    expect(output.demand).toEqual({ productId: 'P-100', requestedUnits: 31 });
    expect(output.weather).toEqual({
      location: 'Oslo',
      temperature: 18,
      condition: 'Partly cloudy',
      humidity: 65,
    });
    expect(output.forecast).toMatchObject({ state: 'ready', temperature: 72 });
    expect(['sunny', 'cloudy', 'rainy', 'snowy', 'windy']).toContain(
      (output.forecast as { weather: string }).weather,
    );
    expect(output.time).toBe('10am');
    expect(output.sights).toEqual({
      city: 'Oslo',
      attractions: ['Golden Gate Bridge', 'Exploratorium'],
    });
    expect(['New York', 'London', 'Paris']).toContain(
      (output.where as { location: string }).location,
    );
    expect(output.search).toEqual({
      results: [
        'document1.pdf - Contains "budget" on page 3',
        'notes.txt - Found "budget" in title',
        'report.docx - "budget" mentioned in summary',
      ],
    });
    // saveNote took search_files' second result by $ref, send_email the local time
    expect(output.note).toMatchObject({
      success: true,
      savedNote: 'notes.txt - Found "budget" in title',
    });
    expect(output.email).toMatchObject({
      success: true,
      message: 'Email sent to a@example.com with subject: Hi',
    });
    // The streaming tool's loading state arrived as a preliminary output first.
    const progress = events.filter((event) => event.type === 'call-progress');
    expect(progress[0]).toMatchObject({
      callId: 'forecast',
      progress: { data: { state: 'loading' } },
    });
    // The note started only after the search it references had finished.
    const at = (type: string, callId: string) =>
      events.find((event) => event.type === type && 'callId' in event && event.callId === callId)
        ?.at ?? NaN;
    expect(at('call-started', 'note')).toBeGreaterThanOrEqual(at('call-finished', 'search'));
  });
});
