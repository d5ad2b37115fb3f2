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
