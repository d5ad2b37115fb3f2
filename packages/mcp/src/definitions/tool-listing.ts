import {
  type CallToolResult,
  fromJsonSchema,
  type JsonSchemaType,
  type Tool as McpToolListing,
} from '@modelcontextprotocol/server';
import type { AnyTool, ZodSchema } from '@mtpx/executor';
import { isZodSchema } from '@mtpx/executor/internal';
import type { RiskLevel } from '@mtpx/protocol';
import { z } from 'zod';
import type { McpToolListingOptions } from './mcp-listing';
import { isMcpTool } from './mcp-tool';
import { errorToCallToolResult } from './tool-content';

/** A tool with no risk level is advertised as MCP reads a tool without hints: it may destroy. */
const unknownRisk: McpToolListing['annotations'] = { readOnlyHint: false, destructiveHint: true };

const annotationsByRisk: Record<RiskLevel, McpToolListing['annotations']> = {
  read_only: { readOnlyHint: true, destructiveHint: false },
  write: { readOnlyHint: false, destructiveHint: false },
  destructive: { readOnlyHint: false, destructiveHint: true },
};

/** A served tool: its listing, and the check its results pass before they are sent. */
export interface ToolListing {
  descriptor: McpToolListing;
  /** The result to send: `result` itself, or an `isError` result when it breaks `outputSchema`. */
  checkResult(result: CallToolResult): CallToolResult;
}

/**
 * A tool's MCP listing: its schema kept, its risk level as annotations, and the listing
 * options given (on `defineMcpTool`, or per name on `createMcpServer`).
 */
export function toolListing(tool: AnyTool, options: McpToolListingOptions = {}): ToolListing {
  const own = (isMcpTool(tool) ? tool.listing : undefined) ?? {};
  const merged: McpToolListingOptions = { ...own, ...options };
  const outputSchema =
    merged.output_schema === undefined ? undefined : jsonSchemaOf(merged.output_schema);
  const descriptor: McpToolListing = {
    name: tool.name,
    ...(merged.title !== undefined && { title: merged.title }),
    description: tool.description,
    inputSchema: tool.input_schema as McpToolListing['inputSchema'],
    ...(outputSchema !== undefined && {
      outputSchema: outputSchema as McpToolListing['outputSchema'],
    }),
    annotations: {
      ...(tool.risk_level === undefined ? unknownRisk : annotationsByRisk[tool.risk_level]),
      ...merged.annotations,
    },
    ...(merged.icons !== undefined && { icons: merged.icons }),
    ...(isMcpTool(tool) && { _meta: { 'dev.mtpx/multi-round': true } }),
  };
  if (outputSchema === undefined) return { descriptor, checkResult: (result) => result };
  const validator = fromJsonSchema(outputSchema as JsonSchemaType)['~standard'];
  return {
    descriptor,
    checkResult(result) {
      if (result.isError === true) return result;
      if (result.structuredContent === undefined) {
        return errorToCallToolResult(
          `The tool "${tool.name}" declares an outputSchema but produced no structured output (an object).`,
        );
      }
      const checked = validator.validate(result.structuredContent);
      if (checked instanceof Promise || checked.issues === undefined) return result;
      const problems = checked.issues.map((issue) => issue.message).join('; ');
      return errorToCallToolResult(
        `The tool "${tool.name}" produced output that does not match its outputSchema: ${problems}`,
      );
    },
  };
}

function jsonSchemaOf(schema: Record<string, unknown> | ZodSchema): Record<string, unknown> {
  if (!isZodSchema(schema)) return schema;
  return z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
}
