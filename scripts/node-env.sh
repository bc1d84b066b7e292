# Sourced (never run) by the project's scripts: puts the Node that Airwave runs on first on PATH.
# That is the system Node when it is 22.15 or newer (package.json `engines`; used as is),
# otherwise Node 24 LTS from the npm registry package node-<os>-<arch> (the real Node binary),
# installed into the git-ignored .node/ when missing or of another version. Everything started afterwards (npm, whose launcher is
# `#!/usr/bin/env node`, tsc, tsx, the test runner and the processes it spawns) finds that Node
# first. Exports AIRWAVE_NODE (its path) and NODE (npm sets it to npm's own Node in scripts).

AIRWAVE_NODE_VERSION=24.21.0
# The oldest Node used as is: the same as `engines` in package.json.
AIRWAVE_NODE_MIN=22.15.0

airwave_node_env() {
  local root system os arch package
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  system="$(node -p 'process.versions.node' 2>/dev/null || echo none)"
  if [ "$system" != none ] && [ "$(printf '%s\n' "$AIRWAVE_NODE_MIN" "$system" | sort -V | head -n 1)" = "$AIRWAVE_NODE_MIN" ]; then
    AIRWAVE_NODE="$(command -v node)"
  else
    if [ "$("$root/.node/bin/node" --version 2>/dev/null)" != "v$AIRWAVE_NODE_VERSION" ]; then
      case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os=unknown ;; esac
      case "$(uname -m)" in x86_64 | amd64) arch=x64 ;; aarch64 | arm64) arch=arm64 ;; *) arch=unknown ;; esac
      package="node-$os-$arch@$AIRWAVE_NODE_VERSION"
      if ! command -v npm >/dev/null 2>&1; then
        echo "setup: Airwave needs Node >= $AIRWAVE_NODE_MIN, or npm to install Node $AIRWAVE_NODE_VERSION; install npm with: sudo apt-get install npm" >&2
        return 1
      fi
      echo "setup: the system Node is $system (older than $AIRWAVE_NODE_MIN): installing $package into .node/"
      rm -rf "$root/.node"
      npm install --global --prefix "$root/.node" --no-audit --no-fund --loglevel=error "$package" >/dev/null || {
        echo "setup: could not install $package into .node/ (see the npm error above)" >&2
        return 1
      }
    fi
    AIRWAVE_NODE="$root/.node/bin/node"
    case ":$PATH:" in
      ":$root/.node/bin:"*) ;;
      *) PATH="$root/.node/bin:$PATH" ;;
    esac
  fi
  NODE="$AIRWAVE_NODE"
  export PATH AIRWAVE_NODE NODE
}

airwave_node_env
