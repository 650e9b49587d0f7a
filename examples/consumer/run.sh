#!/usr/bin/env bash
# Another team's view of the packages: packs @tutoring/domain, testkit and client with pnpm pack
# (each prepack builds), installs the three tarballs with npm into a temporary copy of this
# example (no workspace link; the @tutoring names come from the tarballs only, the rest from the
# registry), typechecks src/ under strict NodeNext and Bundler resolution, and runs it with node.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -r "$root/examples/consumer/." "$work/app"
rm -rf "$work/app/node_modules" "$work/app/dist"
# pnpm pack builds (prepack) into dist/, so it runs in a copy of the three packages beside the
# workspace's node_modules: the workspace's own dist/ folders, which other tests build and run
# (production-build.test.ts), are never rewritten under them. pnpm still reads the copy's
# workspace to turn `workspace:` ranges into versions.
ws="$work/workspace"
mkdir -p "$ws/packages"
cp "$root"/{package.json,pnpm-workspace.yaml,tsconfig.base.json,tsconfig.json} "$ws/"
ln -s "$root/node_modules" "$ws/node_modules"
for pkg in domain testkit client; do
  mkdir "$ws/packages/$pkg"
  cp -r "$root/packages/$pkg"/{package.json,README.md,tsdown.config.mjs,src} "$ws/packages/$pkg/"
  ln -s "$root/packages/$pkg/node_modules" "$ws/packages/$pkg/node_modules"
done
# The three builds at once: most of each is waiting on its declaration bundler.
pids=()
for pkg in domain testkit client; do
  (cd "$ws/packages/$pkg" && npx --yes pnpm@10 pack --pack-destination "$work" >"$work/$pkg.log" 2>&1) &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || { cat "$work"/*.log; exit 1; }; done
echo "packed: ${SECONDS} s"
ls -l "$work"/*.tgz | awk '{print "tarball: " $NF " " $5 " bytes"}'
cd "$work/app"
npm install --no-audit --no-fund --no-package-lock --loglevel=error "$work"/tutoring-domain-*.tgz "$work"/tutoring-testkit-*.tgz "$work"/tutoring-client-*.tgz fast-check@^4 >/dev/null
echo "installed: ${SECONDS} s"
tsc="$root/node_modules/typescript/bin/tsc"
node "$tsc" -p tsconfig.bundler.json
node "$tsc" -p tsconfig.nodenext.json
echo "typechecked: ${SECONDS} s"
node dist/main.js
