#!/usr/bin/env bash
# Runs its arguments as a command on the Node Airwave runs on (scripts/node-env.sh), e.g.
# `bash scripts/with-node.sh node bench/run.ts`: used by npm scripts, which npm starts with
# whatever Node npm itself runs on.
set -euo pipefail
source "$(dirname "$0")/node-env.sh"
exec "$@"
