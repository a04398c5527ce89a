#!/usr/bin/env bash
# Installs Lectern from a GitHub release: the executable for this OS and processor (its SHA-256 checked against
# the release's SHA256SUMS), a dedicated user, the systemd unit (deploy/lectern.service), enabled and started.
#
#   curl -fsSL https://github.com/OWNER/lectern/releases/latest/download/install.sh | sudo bash
#
# Options:
#   --version TAG     a release tag (default: the latest release)
#   --repo OWNER/NAME the GitHub repository (default: $LECTERN_REPO, else lectern/lectern)
#   --base-url URL    where the release's files are (overrides --repo and --version)
#   --prefix DIR      install under DIR instead of / (DIR/usr/local/bin/lectern, DIR/etc/systemd/system/…)
#   --storage DIR     the storage folder (default /var/lib/lectern)
#   --user NAME       the service's user (default lectern)
#   --no-systemd      install the executable (and write the unit file) only: no user, no systemctl
#   -h, --help        this help
set -euo pipefail

REPO="${LECTERN_REPO:-lectern/lectern}"
VERSION="latest"
BASE_URL=""
PREFIX=""
STORAGE="/var/lib/lectern"
SERVICE_USER="lectern"
SYSTEMD=1

say() { printf '%s\n' "$*"; }
die() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}
usage() {
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
}

while [ $# -gt 0 ]; do
  case "$1" in
    --version) VERSION="${2:?--version needs a tag}"; shift 2 ;;
    --repo) REPO="${2:?--repo needs OWNER/NAME}"; shift 2 ;;
    --base-url) BASE_URL="${2:?--base-url needs a URL}"; shift 2 ;;
    --prefix) PREFIX="${2:?--prefix needs a folder}"; shift 2 ;;
    --storage) STORAGE="${2:?--storage needs a folder}"; shift 2 ;;
    --user) SERVICE_USER="${2:?--user needs a name}"; shift 2 ;;
    --no-systemd) SYSTEMD=0; shift ;;
    -h | --help) usage; exit 0 ;;
    *) printf 'install.sh: unknown option %s (see --help).\n' "$1" >&2; exit 2 ;;
  esac
done

case "$(uname -s)" in
  Linux) os="unknown-linux-gnu" ;;
  Darwin) os="apple-darwin" ;;
  *) die "Lectern has no release for $(uname -s); run it from source with Deno instead." ;;
esac
case "$(uname -m)" in
  x86_64 | amd64) arch="x86_64" ;;
  aarch64 | arm64) arch="aarch64" ;;
  *) die "Lectern has no release for the $(uname -m) processor; run it from source with Deno instead." ;;
esac
if [ "$os" = "apple-darwin" ] && [ "$arch" = "x86_64" ]; then
  die "Lectern's macOS release is for Apple silicon (arm64) only."
fi
ASSET="lectern-${arch}-${os}"

if [ -z "$BASE_URL" ]; then
  if [ "$VERSION" = "latest" ]; then
    BASE_URL="https://github.com/${REPO}/releases/latest/download"
  else
    BASE_URL="https://github.com/${REPO}/releases/download/${VERSION}"
  fi
fi

download() { # URL FILE
  if command -v curl >/dev/null 2>&1; then
    curl --fail --silent --show-error --location --output "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget --quiet --output-document="$2" "$1"
  else
    die "Neither curl nor wget is installed; install one of them first."
  fi
}

sha256() { # FILE
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d' ' -f1
  else
    shasum -a 256 "$1" | cut -d' ' -f1
  fi
}

verify() { # NAME FILE SUMS
  local expected actual
  expected="$(awk -v name="$1" '$2 == name || $2 == "*" name { print $1 }' "$3" | head -n 1)"
  [ -n "$expected" ] || die "The release's SHA256SUMS does not list $1."
  actual="$(sha256 "$2")"
  [ "$expected" = "$actual" ] || die "The checksum of $1 does not match the release's SHA256SUMS (got $actual); nothing was installed."
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

say "Downloading $ASSET from $BASE_URL"
download "$BASE_URL/SHA256SUMS" "$work/SHA256SUMS" || die "Cannot download SHA256SUMS from $BASE_URL."
download "$BASE_URL/$ASSET" "$work/$ASSET" || die "Cannot download $ASSET from $BASE_URL."
download "$BASE_URL/lectern.service" "$work/lectern.service" || die "Cannot download lectern.service from $BASE_URL."
verify "$ASSET" "$work/$ASSET" "$work/SHA256SUMS"
verify "lectern.service" "$work/lectern.service" "$work/SHA256SUMS"
say "Checksums match."

bin_dir="$PREFIX/usr/local/bin"
unit_dir="$PREFIX/etc/systemd/system"
mkdir -p "$bin_dir"
install -m 0755 "$work/$ASSET" "$bin_dir/lectern"
say "Installed $bin_dir/lectern"

if [ "$os" = "unknown-linux-gnu" ]; then
  mkdir -p "$unit_dir"
  sed -e "s#/var/lib/lectern#${STORAGE}#g" \
    -e "s#^User=lectern\$#User=${SERVICE_USER}#" \
    -e "s#^Group=lectern\$#Group=${SERVICE_USER}#" \
    "$work/lectern.service" >"$unit_dir/lectern.service"
  chmod 0644 "$unit_dir/lectern.service"
  say "Wrote $unit_dir/lectern.service"
fi

if [ "$SYSTEMD" = 1 ]; then
  [ "$os" = "unknown-linux-gnu" ] || die "systemd is Linux only; on macOS run: lectern serve --storage DIR (or pass --no-systemd)."
  command -v systemctl >/dev/null 2>&1 || die "systemctl is not installed; pass --no-systemd to install the executable only."
  [ "$(id -u)" = 0 ] || die "Creating the service user and the unit needs root: run with sudo, or pass --no-systemd."
  if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    useradd --system --home-dir "$STORAGE" --no-create-home --shell /usr/sbin/nologin "$SERVICE_USER"
    say "Created the user $SERVICE_USER"
  fi
  mkdir -p "$STORAGE"
  chown "$SERVICE_USER:$SERVICE_USER" "$STORAGE"
  chmod 0700 "$STORAGE"
  systemctl daemon-reload
  systemctl enable --now lectern.service
  say "Lectern is running: systemctl status lectern; the storage is $STORAGE."
else
  say "Skipped the user and systemctl (--no-systemd). Start it with: $bin_dir/lectern serve --storage $STORAGE"
fi
