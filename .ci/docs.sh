#!/usr/bin/env bash
# The documentation site (issue 18): `pnpm docs` builds the TypeDoc reference of every
# published package with the guides and the error-code page, failing on any warning
# (broken links, undocumented exports); the error-code page's test compares it with the
# code unions of the sources.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
node --test scripts/docs/*.test.mjs || exit 1
# `pnpm docs` is pnpm's own command (a package's home page): the script runs as `pnpm run docs`.
pnpm run docs
