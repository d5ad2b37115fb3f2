import type { JsonObject, JsonValue } from '@mtpx/protocol';
import { ToolsetLog } from './bfcl-tools';

/**
 * What the tools of one run of row 9 did: the GitHub calls the scripts make answer as the
 * GitHub MCP server would (the fields the scripts read), the trading and ticket calls as
 * row 8's desk does, and every call is recorded for the checks.
 */
export class LargeToolsetLog {
  readonly calls: Array<{ name: string; arguments: JsonObject }> = [];
  readonly #desk = new ToolsetLog();

  call(name: string, args: JsonObject): JsonValue {
    this.calls.push({ name, arguments: args });
    switch (name) {
      case 'search_issues':
        return { total_count: 1, items: [{ number: 42, title: 'Login crashes on Safari' }] };
      case 'add_issue_comment':
        return { id: 1001, issue_number: args.issue_number ?? null, body: args.body ?? '' };
      case 'get_file_contents':
        return { path: args.path ?? '', sha: '3d21ec53a331a6f037a91c368710b99387d012c1' };
      case 'create_branch':
        return { name: args.branch ?? '', from: args.from_branch ?? 'main' };
      case 'create_or_update_file':
        return {
          branch: args.branch ?? '',
          commit: { sha: '9f0c2e1d7b2a4c6e8f0a1b3c5d7e9f1a3b5c7d9e' },
        };
      case 'create_pull_request':
        return { number: 7, head: args.head ?? '', url: 'https://github.com/octo-org/app/pull/7' };
      case 'create_issue':
        return { number: 43, title: args.title ?? '' };
      case 'place_order':
        return {
          order_id: 12446,
          order_type: args.order_type ?? '',
          status: 'Pending',
          price: args.price ?? null,
          amount: args.amount ?? null,
        };
      case 'add_to_watchlist':
        return { watchlist: [args.stock ?? ''] };
      default:
        return this.#desk.call(name, args);
    }
  }

  /** The arguments the first call of `name` ran with. */
  argumentsOf(name: string): JsonObject | undefined {
    return this.calls.find((call) => call.name === name)?.arguments;
  }
}
