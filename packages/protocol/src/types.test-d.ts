import { expectTypeOf, test } from 'vitest';
import type { ExecutionPlan, ExecutionPlanInput } from './execution-plan';
import type { ProviderEvent } from './provider';
import type { ToolCall, ToolCallInput } from './tool-call';
import type { ToolErrorCode, ToolResult } from './tool-result';

test('written calls may leave out defaults; parsed calls have them', () => {
  expectTypeOf<{ id: string; name: string }>().toExtend<ToolCallInput>();
  expectTypeOf<ToolCall['depends_on']>().toEqualTypeOf<string[]>();
  expectTypeOf<ExecutionPlan['batches'][number]['mode']>().toEqualTypeOf<
    'parallel' | 'sequential'
  >();
  expectTypeOf<{ batches: [] }>().toExtend<ExecutionPlanInput>();
});

test('results carry a typed error_code', () => {
  expectTypeOf<ToolResult['error_code']>().toEqualTypeOf<ToolErrorCode | undefined>();
  expectTypeOf<'timeout'>().toExtend<ToolErrorCode>();
});

test('provider events are a discriminated union', () => {
  expectTypeOf<
    Extract<ProviderEvent, { type: 'tool-call-ready' }>['toolCall']['id']
  >().toEqualTypeOf<string>();
});
