#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, and runs the whole service on embedded defaults.
# Extra arguments are passed to `airwave start` (e.g. npm start -- --http-port 9090).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/node-env.sh
npm run --silent build
exec node packages/server/dist/main/cli.js start "$@"
