#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and runs the whole service on embedded defaults.
# Extra arguments are passed to `airwave start` (e.g. npm start -- --http-port 9090).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/node-env.sh
npm run --silent build
# exec (here and in package.json's "start"): npm signals the service itself, so a SIGTERM to npm
# stops it; the service replaces this shell, and cli.js re-executes itself in place with its V8 flags,
# so what `npm start` leaves running is npm and one Node process (plus the embedded database).
exec node packages/server/dist/main/cli.js start "$@"
