#!/usr/bin/env bash
# Installs every Debian 12 package that SyncTax needs to build and test, and only those missing.
# The one list of dependencies: CMake and CI rely on it and nothing else.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config clang-tidy
    libtorch-dev libgloo-dev
    libyaml-cpp-dev nlohmann-json3-dev libcli11-dev rapidjson-dev zlib1g-dev
    libgtest-dev libgmock-dev
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev
    xvfb xauth
    desktop-file-utils appstream file
    python3 python3-torch python3-pytest mypy
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "setup: ${#missing[@]} packages are missing and this needs root or sudo: ${missing[*]}" >&2; exit 1; }
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp -t synctax-setup.XXXXXX)
echo "setup: ${#missing[@]} packages missing: ${missing[*]}" >&2
echo "setup: reading the package lists (apt-get update)" >&2
"${sudo_cmd[@]}" apt-get update -qq >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
# What apt will fetch with their dependencies: the number of packages and the download size.
uris=$(apt-get install --print-uris -qq --no-install-recommends "${missing[@]}" 2>/dev/null || true)
count=$(printf '%s\n' "$uris" | grep -c "^'" || true)
mib=$(printf '%s\n' "$uris" | awk "/^'/ { s += \$3 } END { printf \"%.0f\", s / 1048576 }")
echo "setup: installing $count packages with their dependencies, $mib MiB to download (the full log: $log)" >&2
# apt's status lines on fd 3 ("dlstatus:..." while downloading, "pmstatus:..." while installing)
# drawn as one line of progress; everything else goes to the log.
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends -o APT::Status-Fd=3 "${missing[@]}" 3>&1 >>"$log" 2>&1 \
    | while IFS=: read -r kind _ percent message; do
        case $kind in
        dlstatus) step=downloading ;;
        pmstatus) step=installing ;;
        *) continue ;;
        esac
        printf '\rsetup: %-11s %3.0f%%  %-50.50s' "$step" "$percent" "$message" >&2
    done || { echo >&2; tail -30 "$log" >&2; echo "setup: apt-get failed; the full log: $log" >&2; exit 1; }
echo >&2
echo "setup: done" >&2
rm -f "$log"
