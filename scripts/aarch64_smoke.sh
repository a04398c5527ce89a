#!/usr/bin/env bash
# Runs Lectern on linux aarch64 under user-mode emulation (Debian's qemu-user-static): the aarch64 Deno from the
# npm registry (@deno/linux-arm64-glibc), the aarch64 builds of the native packages (LanceDB, libSQL, argon2;
# fetched by that Deno's own `deno install` from the registry), started on a fresh storage, then driven by the
# host's Deno (scripts/aarch64_smoke.ts): upload a text file, embed it with the built-in embedder, chat through
# the fake OpenAI-compatible server (server/testing/fake_openai.ts) on 127.0.0.1, check the answer and sources.
#
#   scripts/aarch64_smoke.sh            (needs root or sudo for apt-get, and the npm registry)
#
# Environment: AARCH64_SMOKE_DIR (work folder, default $TMPDIR/lectern-aarch64; kept between runs as a cache),
# AARCH64_SMOKE_TIMEOUT (seconds the emulated server may take to answer /api/ping, default 900).
# Prints the time each step took; exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
WORK="${AARCH64_SMOKE_DIR:-${TMPDIR:-/tmp}/lectern-aarch64}"
SYSROOT=/usr/aarch64-linux-gnu
HOST_DENO="$(command -v deno || true)"
[ -n "$HOST_DENO" ] || { echo "aarch64_smoke.sh: the host's deno is not on PATH." >&2; exit 1; }
DENO_VERSION="$("$HOST_DENO" eval --quiet 'console.log(Deno.version.deno)')"
started=$(date +%s)
step_start=$started
step() {
  local now
  now=$(date +%s)
  printf '[aarch64-smoke] %s (%ss; %ss in all)\n' "$1" "$((now - step_start))" "$((now - started))"
  step_start=$now
}

# 1. qemu-user-static and the arm64 C and C++ runtimes (the cross packages install them under $SYSROOT).
if ! command -v qemu-aarch64-static >/dev/null 2>&1 || [ ! -e "$SYSROOT/lib/ld-linux-aarch64.so.1" ] ||
  [ ! -e "$SYSROOT/lib/libstdc++.so.6" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq -o DPkg::Lock::Timeout=600 \
    qemu-user-static libc6-arm64-cross libgcc-s1-arm64-cross libstdc++6-arm64-cross >/dev/null
fi
QEMU="$(command -v qemu-aarch64-static)"
export QEMU_LD_PREFIX="$SYSROOT"
step "qemu-user-static and the arm64 runtime libraries are installed"

# 1b. The emulated server starts its parse workers with its own aarch64 Deno: the kernel runs them through qemu
#     once binfmt_misc knows aarch64 executables (a registration for this boot; left as it is when one exists).
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  [ -e /proc/sys/fs/binfmt_misc/register ] || $SUDO mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:'"$QEMU"':F' |
    $SUDO tee /proc/sys/fs/binfmt_misc/register >/dev/null
fi
step "aarch64 executables run through qemu (binfmt_misc)"

# 2. The aarch64 Deno, the same version as the host's, from the npm registry.
mkdir -p "$WORK/deno-arm64"
ARM_DENO="$WORK/deno-arm64/package/deno"
if [ ! -x "$ARM_DENO" ] || [ "$(cat "$WORK/deno-arm64/version" 2>/dev/null)" != "$DENO_VERSION" ]; then
  rm -rf "$WORK/deno-arm64" && mkdir -p "$WORK/deno-arm64"
  (cd "$WORK/deno-arm64" && npm pack --silent "@deno/linux-arm64-glibc@$DENO_VERSION" >/dev/null)
  tar -xzf "$WORK/deno-arm64"/deno-linux-arm64-glibc-*.tgz -C "$WORK/deno-arm64"
  chmod +x "$ARM_DENO"
  echo "$DENO_VERSION" >"$WORK/deno-arm64/version"
fi
arch="$("$QEMU" "$ARM_DENO" eval --quiet 'console.log(Deno.build.arch)')"
[ "$arch" = "aarch64" ] || { echo "aarch64_smoke.sh: the emulated Deno reports $arch." >&2; exit 1; }
step "the aarch64 Deno $DENO_VERSION runs under qemu ($ARM_DENO)"

# 3. A copy of the project (tracked files and the built client) with its own node_modules for aarch64. Its Deno
#    cache is its own too; the extracted npm packages are platform-independent, so they come from the host's
#    cache when it has them (linked or copied, never written to), and the arm64 native packages from the registry.
"$HOST_DENO" task build >/dev/null
PROJECT="$WORK/project"
rm -rf "$PROJECT" && mkdir -p "$PROJECT"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - 2>/dev/null | tar -xf - -C "$PROJECT"
cp -r dist "$PROJECT/dist"
ARM_DENO_DIR="$WORK/deno-dir"
HOST_NPM_CACHE="$("$HOST_DENO" info --json | "$HOST_DENO" eval --quiet \
  'const i = JSON.parse(await new Response(Deno.stdin.readable).text()); console.log(i.npmCache)')"
mkdir -p "$ARM_DENO_DIR/npm/registry.npmjs.org"
if [ -d "$HOST_NPM_CACHE/registry.npmjs.org" ] && [ -z "$(ls -A "$ARM_DENO_DIR/npm/registry.npmjs.org")" ]; then
  # Hard links when the folders share a file system (Deno never rewrites an extracted package), else a copy.
  cp -al "$HOST_NPM_CACHE/registry.npmjs.org/." "$ARM_DENO_DIR/npm/registry.npmjs.org/" 2>/dev/null ||
    cp -r "$HOST_NPM_CACHE/registry.npmjs.org/." "$ARM_DENO_DIR/npm/registry.npmjs.org/"
fi
(cd "$PROJECT" && DENO_DIR="$ARM_DENO_DIR" "$QEMU" "$ARM_DENO" install --quiet)
for package in @lancedb+lancedb-linux-arm64-gnu @libsql+linux-arm64-gnu @node-rs+argon2-linux-arm64-gnu; do
  found=$(find "$PROJECT/node_modules/.deno" -maxdepth 1 -name "$package@*" | head -n 1)
  [ -n "$found" ] || { echo "aarch64_smoke.sh: $package was not installed." >&2; exit 1; }
done
step "the project's npm packages, with the arm64 native ones, are installed in $PROJECT"

# 4. The run itself, driven by the host's Deno.
AARCH64_QEMU="$QEMU" AARCH64_DENO="$ARM_DENO" AARCH64_PROJECT="$PROJECT" AARCH64_DENO_DIR="$ARM_DENO_DIR" \
  AARCH64_SMOKE_TIMEOUT="${AARCH64_SMOKE_TIMEOUT:-900}" \
  "$HOST_DENO" run -A "$ROOT/scripts/aarch64_smoke.ts"
step "Lectern on aarch64 started, embedded an upload and answered a chat with its source"
