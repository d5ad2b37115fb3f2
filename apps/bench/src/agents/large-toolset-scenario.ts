import type { ScriptedToolCall, ScriptedTurn } from '@mtpx/providers/testing';
import type { LargeToolsetLog } from './large-toolset-log';

/**
 * One task of row 9 and how each variant's model plays it: with tool search (a search
 * response, then every call in ONE response with `$ref`s, then the answer), with every
 * schema (the calls, then the answer), and level by level (no references: one response
 * per dependency level, values read from the results).
 */
export interface LargeToolsetTask {
  name: string;
  /** The tools the task needs. */
  needs: readonly string[];
  task: string;
  /** What the model searches for (one `search_tools` call per query, in one response). */
  searches: readonly string[];
  /** The task's calls in one response (positional `call_N` references). */
  calls: ScriptedToolCall[];
  /** The same calls by dependency level, with the values the results held. */
  levels: ScriptedToolCall[][];
  answer: string;
  /** What the run must have done; `undefined` when it did. */
  check: (log: LargeToolsetLog) => string | undefined;
}

const ref = (id: string, path: string) => ({ $ref: id, $path: path });
const repo = { owner: 'octo-org', repo: 'app' };

/** Each call id the script gives `call_N` (so the references of a response read the same in every variant). */
function numbered(calls: ScriptedToolCall[]): ScriptedToolCall[] {
  return calls.map((call, index) => ({ ...call, id: `call_${index + 1}` }));
}

function expectCalls(log: LargeToolsetLog, needs: readonly string[]): string | undefined {
  const ran = log.calls.map((call) => call.name).sort();
  const expected = [...needs].sort();
  return JSON.stringify(ran) === JSON.stringify(expected)
    ? undefined
    : `ran ${JSON.stringify(ran)}, expected ${JSON.stringify(expected)}`;
}

function expectValue(log: LargeToolsetLog, tool: string, key: string, value: unknown) {
  const actual = log.argumentsOf(tool)?.[key];
  return JSON.stringify(actual) === JSON.stringify(value)
    ? undefined
    : `${tool}.${key} was ${JSON.stringify(actual)}, expected ${JSON.stringify(value)}`;
}

const readmeSha = '3d21ec53a331a6f037a91c368710b99387d012c1';

/** Row 9's four tasks: 2, 3, 4 and 5 tools of the 146, GitHub's and BFCL's. */
export const largeToolsetTasks: LargeToolsetTask[] = [
  {
    name: '2 GitHub tools',
    needs: ['search_issues', 'add_issue_comment'],
    task: 'Find the open issue about the login crash in octo-org/app and tell its reporter a fix is coming.',
    searches: ['search issues, comment on an issue'],
    calls: numbered([
      { name: 'search_issues', arguments: { query: 'login crash is:open', ...repo } },
      {
        name: 'add_issue_comment',
        arguments: {
          ...repo,
          issue_number: ref('call_1', '/items/0/number'),
          body: 'A fix is coming.',
        },
      },
    ]),
    levels: [
      [
        {
          id: 'call_1',
          name: 'search_issues',
          arguments: { query: 'login crash is:open', ...repo },
        },
      ],
      [
        {
          id: 'call_2',
          name: 'add_issue_comment',
          arguments: { ...repo, issue_number: 42, body: 'A fix is coming.' },
        },
      ],
    ],
    answer: 'I commented on issue #42 (Login crashes on Safari) that a fix is coming.',
    check: (log) =>
      expectCalls(log, ['search_issues', 'add_issue_comment']) ??
      expectValue(log, 'add_issue_comment', 'issue_number', 42),
  },
  {
    name: '3 trading tools',
    needs: ['get_symbol_by_name', 'get_stock_info', 'place_order'],
    task: 'Buy 10 shares of Nvidia at its current price.',
    searches: ['stock symbol by company name, place a buy order', 'get stock info'],
    calls: numbered([
      { name: 'get_symbol_by_name', arguments: { name: 'Nvidia' } },
      { name: 'get_stock_info', arguments: { symbol: ref('call_1', '/symbol') } },
      {
        name: 'place_order',
        arguments: {
          order_type: 'Buy',
          symbol: ref('call_1', '/symbol'),
          price: ref('call_2', '/price'),
          amount: 10,
        },
      },
    ]),
    levels: [
      [{ id: 'call_1', name: 'get_symbol_by_name', arguments: { name: 'Nvidia' } }],
      [{ id: 'call_2', name: 'get_stock_info', arguments: { symbol: 'NVDA' } }],
      [
        {
          id: 'call_3',
          name: 'place_order',
          arguments: { order_type: 'Buy', symbol: 'NVDA', price: 220.34, amount: 10 },
        },
      ],
    ],
    answer: 'Order 12446 is pending: buy 10 NVDA at $220.34.',
    check: (log) =>
      expectCalls(log, ['get_symbol_by_name', 'get_stock_info', 'place_order']) ??
      expectValue(log, 'place_order', 'price', 220.34),
  },
  {
    name: '4 GitHub tools',
    needs: ['get_file_contents', 'create_branch', 'create_or_update_file', 'create_pull_request'],
    task: 'In octo-org/app, fix the typo "recieve" in README.md on a new branch fix-readme and open a pull request.',
    searches: [
      'get file contents, create branch',
      'create or update a file, create a pull request',
    ],
    calls: numbered([
      { name: 'get_file_contents', arguments: { ...repo, path: 'README.md' } },
      { name: 'create_branch', arguments: { ...repo, branch: 'fix-readme', from_branch: 'main' } },
      {
        name: 'create_or_update_file',
        arguments: {
          ...repo,
          path: 'README.md',
          content: 'You will receive an email.',
          message: 'Fix a typo in README.md',
          branch: ref('call_2', '/name'),
          sha: ref('call_1', '/sha'),
        },
      },
      {
        name: 'create_pull_request',
        arguments: {
          ...repo,
          title: 'Fix a typo in README.md',
          head: ref('call_3', '/branch'),
          base: 'main',
        },
      },
    ]),
    levels: [
      [
        { id: 'call_1', name: 'get_file_contents', arguments: { ...repo, path: 'README.md' } },
        {
          id: 'call_2',
          name: 'create_branch',
          arguments: { ...repo, branch: 'fix-readme', from_branch: 'main' },
        },
      ],
      [
        {
          id: 'call_3',
          name: 'create_or_update_file',
          arguments: {
            ...repo,
            path: 'README.md',
            content: 'You will receive an email.',
            message: 'Fix a typo in README.md',
            branch: 'fix-readme',
            sha: readmeSha,
          },
        },
      ],
      [
        {
          id: 'call_4',
          name: 'create_pull_request',
          arguments: {
            ...repo,
            title: 'Fix a typo in README.md',
            head: 'fix-readme',
            base: 'main',
          },
        },
      ],
    ],
    answer: 'Pull request #7 fixes the typo on branch fix-readme.',
    check: (log) =>
      expectCalls(log, [
        'get_file_contents',
        'create_branch',
        'create_or_update_file',
        'create_pull_request',
      ]) ??
      expectValue(log, 'create_or_update_file', 'sha', readmeSha) ??
      expectValue(log, 'create_pull_request', 'head', 'fix-readme'),
  },
  {
    name: '5 tools, GitHub and BFCL',
    needs: [
      'get_symbol_by_name',
      'get_stock_info',
      'add_to_watchlist',
      'create_ticket',
      'create_issue',
    ],
    task: 'Put Tesla on my watchlist, open a support ticket about its price, and file an issue in octo-org/app to track the ticket.',
    searches: [
      'stock symbol by name, add stock to watchlist',
      'get stock info',
      'create support ticket, create GitHub issue',
    ],
    calls: numbered([
      { name: 'get_symbol_by_name', arguments: { name: 'Tesla' } },
      { name: 'get_stock_info', arguments: { symbol: ref('call_1', '/symbol') } },
      { name: 'add_to_watchlist', arguments: { stock: ref('call_1', '/symbol') } },
      {
        name: 'create_ticket',
        arguments: { title: 'Tesla price', description: 'Watch TSLA.', priority: 2 },
      },
      {
        name: 'create_issue',
        arguments: {
          ...repo,
          title: 'Track ticket 1: Tesla price',
          body: 'See the support ticket.',
        },
      },
    ]),
    levels: [
      [
        { id: 'call_1', name: 'get_symbol_by_name', arguments: { name: 'Tesla' } },
        {
          id: 'call_2',
          name: 'create_ticket',
          arguments: { title: 'Tesla price', description: 'Watch TSLA.', priority: 2 },
        },
        {
          id: 'call_3',
          name: 'create_issue',
          arguments: {
            ...repo,
            title: 'Track ticket 1: Tesla price',
            body: 'See the support ticket.',
          },
        },
      ],
      [
        { id: 'call_4', name: 'get_stock_info', arguments: { symbol: 'TSLA' } },
        { id: 'call_5', name: 'add_to_watchlist', arguments: { stock: 'TSLA' } },
      ],
    ],
    answer: 'TSLA ($667.92) is on your watchlist; ticket 1 is open and issue #43 tracks it.',
    check: (log) =>
      expectCalls(log, [
        'get_symbol_by_name',
        'get_stock_info',
        'add_to_watchlist',
        'create_ticket',
        'create_issue',
      ]) ?? expectValue(log, 'add_to_watchlist', 'stock', 'TSLA'),
  },
];

/** The task with tool search: the searches, every call in one response, the answer. Three model calls. */
export function withToolSearch(task: LargeToolsetTask): ScriptedTurn[] {
  return [
    {
      toolCalls: task.searches.map((query, index) => ({
        id: `search_${index + 1}`,
        name: 'search_tools',
        arguments: { query },
      })),
    },
    { toolCalls: task.calls },
    { text: task.answer },
  ];
}

/** The task with every schema sent: the calls in one response, then the answer. Two model calls. */
export function withEverySchema(task: LargeToolsetTask): ScriptedTurn[] {
  return [{ toolCalls: task.calls }, { text: task.answer }];
}

/** The task level by level (no references), then the answer. */
export function levelByLevel(task: LargeToolsetTask): ScriptedTurn[] {
  return [...task.levels.map((calls) => ({ toolCalls: calls })), { text: task.answer }];
}
