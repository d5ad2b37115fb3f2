import type { Tool as McpToolListing } from '@modelcontextprotocol/server';
import type { ZodSchema } from '@mtpx/executor';

/** An icon a client may show for a server, tool, prompt or resource. */
export interface McpIcon {
  /** An `https:` or `data:` URL of the image. */
  src: string;
  mimeType?: string;
  /** Sizes as `48x48`, or `any` for scalable formats. */
  sizes?: string[];
  /** The theme the icon is drawn for. */
  theme?: 'light' | 'dark';
}

/** How long a cacheable result may be reused (MCP 2026-07-28 `ttlMs` / `cacheScope`). */
export interface McpCacheHint {
  /** Milliseconds; 0 = do not reuse. */
  ttlMs?: number;
  /** `public`: shared caches may keep it; `private`: only the requesting client. */
  cacheScope?: 'public' | 'private';
}

/** The lists (and reads) a cache hint can be given for. */
export type McpCacheableMethod =
  | 'tools/list'
  | 'prompts/list'
  | 'resources/list'
  | 'resources/templates/list'
  | 'resources/read';

/** What a tool's MCP listing adds to its MTP definition. */
export interface McpToolListingOptions {
  /** A human-friendly name for clients' UIs. */
  title?: string;
  icons?: McpIcon[];
  /**
   * The shape of the tool's object output (JSON Schema or zod). Listed as `outputSchema`;
   * each result's `structuredContent` is checked against it before it is sent, and a
   * result that does not match becomes an `isError` result instead.
   */
  output_schema?: Record<string, unknown> | ZodSchema;
  /** MCP annotations to list, over the ones derived from `risk_level`. */
  annotations?: McpToolListing['annotations'];
}
