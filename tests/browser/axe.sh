#!/bin/sh
# Install the pinned axe-core from npm into tests/browser/.axe (gitignored), once.
# Prints the path of axe.min.js. The integrity hash pins the exact tarball npm may install.
set -eu
AXE_VERSION="4.14.1"
AXE_INTEGRITY="sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ=="
HERE="$(cd "$(dirname "$0")" && pwd)"
PREFIX="$HERE/.axe"
SCRIPT="$PREFIX/node_modules/axe-core/axe.min.js"

installed_version() {
    node -e "process.stdout.write(require('$PREFIX/node_modules/axe-core/package.json').version)" 2>/dev/null || true
}

if [ ! -f "$SCRIPT" ] || [ "$(installed_version)" != "$AXE_VERSION" ]; then
    mkdir -p "$PREFIX"
    npm install --no-save --no-audit --no-fund --no-package-lock --ignore-scripts --silent \
        --prefix "$PREFIX" "axe-core@$AXE_VERSION" >&2
    # npm records what it installed, with the tarball's hash, in the hidden lockfile.
    integrity="$(node -e "process.stdout.write(require('$PREFIX/node_modules/.package-lock.json').packages['node_modules/axe-core'].integrity)")"
    if [ "$integrity" != "$AXE_INTEGRITY" ]; then
        echo "axe-core $AXE_VERSION integrity mismatch: $integrity" >&2
        exit 1
    fi
fi
echo "$SCRIPT"
