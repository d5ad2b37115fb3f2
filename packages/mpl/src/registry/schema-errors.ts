import type { ErrorObject } from 'ajv';
import type { ErrorDetail } from '../errors';

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function listValues(values: unknown): string {
  return Array.isArray(values) ? values.map((value) => JSON.stringify(value)).join(', ') : '';
}

/**
 * An Ajv error as an {@link ErrorDetail} that points at the offending member itself: a
 * missing required property is reported at its own path (`/steps/0/stepId`), not its parent's.
 */
export function schemaErrorDetail(
  error: ErrorObject,
  options: { prefix?: string; layer?: ErrorDetail['layer']; stype?: string } = {},
): ErrorDetail {
  let path = `${options.prefix ?? ''}${error.instancePath}`;
  let message = error.message ?? 'is invalid';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      path += `/${escapePointer(String(params.missingProperty))}`;
      message = 'is required';
      break;
    case 'additionalProperties':
      path += `/${escapePointer(String(params.additionalProperty))}`;
      message = 'is not allowed here (the schema permits no additional properties)';
      break;
    case 'unevaluatedProperties':
      path += `/${escapePointer(String(params.unevaluatedProperty))}`;
      message = 'is not allowed here (the schema permits no unevaluated properties)';
      break;
    case 'enum':
      message = `must be one of ${listValues(params.allowedValues)}`;
      break;
    case 'const':
      message = `must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case 'format':
      message = `must be a valid ${String(params.format)}`;
      break;
    default:
      break;
  }
  const detail: ErrorDetail = { path, message };
  if (options.layer) detail.layer = options.layer;
  if (options.stype) detail.stype = options.stype;
  return detail;
}

/**
 * The Ajv errors of one validation as details, without the duplicates `allErrors` can produce.
 *
 * @internal
 */
export function schemaErrorDetails(
  errors: readonly ErrorObject[] | null | undefined,
  options: { prefix?: string; layer?: ErrorDetail['layer']; stype?: string } = {},
): ErrorDetail[] {
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors ?? []) {
    const detail = schemaErrorDetail(error, options);
    const key = `${detail.path}\u0000${detail.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
  }
  return details;
}
