#!/usr/bin/env bash
# `npm test`: installs what the suite needs (scripts/setup.sh --test), then runs Biome, the doc
# comment and generated-code checks, tsc, dependency-cruiser and every test on the Node Airwave runs
# on (scripts/node-env.sh). Without TEST_DATABASE_URL, the database tests also run on PostgreSQL
# when a server answers at the default address 127.0.0.1:5432.
# Extra arguments go to scripts/run-tests.mjs (e.g. npm test -- --unit, npm test -- rtmp).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
source scripts/node-env.sh
echo "test: Node $(node --version) ($AIRWAVE_NODE)"
npm run --silent lint
npm run --silent typecheck
npm run --silent layers
# Dashboard (issue 21): its browser e2e test serves the built console.
npm run --silent build -w @airwave/dashboard
exec node scripts/run-tests.mjs "$@"
