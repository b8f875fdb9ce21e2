#!/usr/bin/env bash
# Installs every Debian 12 package that SyncTax needs to build and test, and only those missing.
# The one list of dependencies: CMake and CI rely on it and nothing else.
set -euo pipefail

packages=(
    build-essential cmake ninja-build ccache pkg-config
    libtorch-dev
    libyaml-cpp-dev nlohmann-json3-dev libcli11-dev
    libgtest-dev libgmock-dev
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev qt6-qpa-plugins libgl-dev
    xvfb xauth
    desktop-file-utils appstream file
)

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi

echo "setup: installing ${missing[*]}" >&2
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
