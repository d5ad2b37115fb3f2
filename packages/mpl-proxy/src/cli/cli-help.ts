/** The `--help` text of each `mpl` command. */
export const HELP: Record<string, string> = {
  mpl: `mpl — the MPL proxy and tools for typed, audited agent messages

Usage: mpl <command> [options]

Commands:
  serve                      run the MPL proxy (POST /call, /provenance, /metrics, …)
  schemas list               list the registered STypes
  schemas show ID            print one SType's schema, assertions and examples
  validate ID FILE           validate a payload (and its typed args) against an SType
  hash FILE                  print the semantic hash of a JSON file
  provenance PLAN_ID         print a plan's provenance chain (--verify to check it)

Options:
  -h, --help                 help for mpl or a command (mpl serve --help)
  -v, --version              print the version
`,
  serve: `mpl serve — run the MPL proxy

Usage: mpl serve [options]

Options:
  --port N                   port to listen on (default 9443; 0 picks a free port)
  --host ADDRESS             address to bind (default 127.0.0.1)
  --data DIR                 folder of the SQLite provenance database (default ~/.mpl)
  --provenance URL           keep provenance in PostgreSQL instead, shared by every proxy
                             given the same URL: postgres://user@host:5432/db?schema=mpl
                             (needs the @mtpx/postgres and pg packages)
  --stypes DIR               a registry folder in the reference layout; repeatable
  --mode strict|transparent  strict blocks invalid messages with 422 (default);
                             transparent records them and lets them through
  --upstream URL             forward accepted calls to URL and answer with its response
  --token TOKEN              require "Authorization: Bearer TOKEN" (or set MPL_TOKEN)
  --max-body BYTES           largest request body (default 1048576)
  --hash sha256|b3           sem_hash algorithm (default sha256)
  --profile NAME             QoM profile for messages that name none (default qom-basic)
  --allowed-hosts NAMES      Host names to answer to, comma-separated (default: the
                             loopback names when bound to loopback; any host otherwise)
  --allowed-origins ORIGINS  cross-site origins to let through, comma-separated (or *);
                             other Origins get 403 (default: none)
  --headers-timeout MS       time to receive a request's headers (default 10000)
  --request-timeout MS       time to receive a whole request (default 30000)
  --idle-timeout MS          keep-alive idle time of a connection (default 5000; the
                             connection closes 1 s after the advertised time)
  --http-layer node|fast     the HTTP/1.1 parser: node:http (default), or the proxy's
                             own layer for plain requests in front of it
  --policy FILE              a policy file: SType allow / deny patterns, required
                             profiles, size and rate limits (E-POLICY-DENIED)
  --synchronous full|normal  SQLite durability: full (default) syncs each commit, so an
                             answered call survives a power loss; normal survives a
                             killed proxy only, and commits faster
  --workers N|auto           serve from N processes on the same port (node:cluster;
                             auto: one per core; default 1). They share the store (one
                             SQLite database, or --provenance); a worker that dies is
                             restarted. Per process: /metrics counts the requests its
                             process answered (mpl_message_subscribers counts all);
                             GET /messages sees every worker's calls
  -h, --help                 this help
`,
  'schemas list': `mpl schemas list — list the registered STypes

Usage: mpl schemas list [--namespace NS] [--stypes DIR]… [--json]

Options:
  --namespace NS             only STypes under NS (org, or org.agent)
  --stypes DIR               also load a registry folder; repeatable
  --json                     print JSON instead of a table
  -h, --help                 this help
`,
  'schemas show': `mpl schemas show — print one SType

Usage: mpl schemas show ID [--stypes DIR]…

Prints the SType's schema, assertions, ontology, examples and negative examples as JSON.

Options:
  --stypes DIR               also load a registry folder; repeatable
  -h, --help                 this help
`,
  validate: `mpl validate — validate a payload against an SType

Usage: mpl validate ID FILE [--profile NAME] [--stypes DIR]… [--json]

Validates FILE (JSON; - reads standard input) against ID, and its args against their
args_stype when it has one; evaluates the SType's assertions and the QoM profile.
Exits 0 when the payload is accepted, 1 when it is not.

Options:
  --profile NAME             QoM profile (default qom-basic)
  --stypes DIR               also load a registry folder; repeatable
  --json                     print the full verdict as JSON
  -h, --help                 this help
`,
  hash: `mpl hash — print the semantic hash of a JSON file

Usage: mpl hash FILE [--alg sha256|b3] [--canonical]

FILE is JSON (- reads standard input). The hash is taken over the MPL canonical form:
sorted keys, null members dropped, numbers normalised, strings trimmed.

Options:
  --alg sha256|b3            algorithm (default sha256; b3 is BLAKE3, as the reference writes)
  --canonical                print the canonical form instead of the hash
  -h, --help                 this help
`,
  provenance: `mpl provenance — print a plan's provenance chain

Usage: mpl provenance PLAN_ID [--verify] [--data DIR | --provenance URL] [--json]

Reads the proxy's SQLite database (safe while the proxy runs).

Options:
  --verify                   check every link, sem_hash and entry_hash; exit 1 if broken
  --data DIR                 folder of the provenance database (default ~/.mpl)
  --provenance URL           read a PostgreSQL store instead (postgres://…?schema=mpl)
  --json                     print JSON
  -h, --help                 this help
`,
};

/** Writes a line (or text ending in one) to standard output. */
export const out = (text: string) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);

/** Prints the help of `command` (the overview when it has none); exit code 0. */
export function printHelp(command: string): number {
  out(HELP[command] ?? HELP.mpl ?? '');
  return 0;
}
