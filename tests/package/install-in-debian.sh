#!/usr/bin/env bash
# Installs the Debian package into a clean Debian 12 (bookworm) minbase system and runs it there:
# `drape --version` must print the version, `drape simulate preset:curtain --frames 10` must run.
# The clean system is a debootstrap'd minbase tree, made once and kept as a tarball in
# DRAPE_DEBIAN_CACHE (default /var/cache/drape-debian12) along with the .debs apt fetches, so a
# later run costs an unpack and an install. Every run starts from a fresh copy of the tarball.
# Needs root (chroot, mount), debootstrap and the network to Debian's mirror.
# Usage: install-in-debian.sh PACKAGE.deb EXPECTED_VERSION
set -euo pipefail
deb="$(readlink -f "$1")"
version="$2"
cache="${DRAPE_DEBIAN_CACHE:-/var/cache/drape-debian12}"
mirror="${DRAPE_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
[ "$(id -u)" -eq 0 ] || { echo "install-in-debian.sh needs root (chroot)" >&2; exit 1; }
mkdir -p "$cache/archives/partial"

if [ ! -s "$cache/bookworm-minbase.tar" ]; then
    echo "making a Debian 12 minbase system (once; cached in $cache)"
    fresh="$(mktemp -d)"
    debootstrap --variant=minbase --cache-dir="$cache/archives" bookworm "$fresh" "$mirror"
    tar -C "$fresh" -cf "$cache/bookworm-minbase.tar.tmp" .
    rm -rf "$fresh"
    mv "$cache/bookworm-minbase.tar.tmp" "$cache/bookworm-minbase.tar"
fi

root="$(mktemp -d)"
cleanup() {
    for m in var/cache/apt/archives proc; do
        mountpoint -q "$root/$m" && umount "$root/$m"
    done
    rm -rf "$root"
}
trap cleanup EXIT
tar -C "$root" -xf "$cache/bookworm-minbase.tar"
mount -t proc proc "$root/proc"
mount --bind "$cache/archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/drape.deb"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

in_root apt-get update -qq
# Only Depends (from shlibdeps) are installed: the package must run without its Recommends.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /tmp/drape.deb

printed="$(in_root drape --version)"
echo "drape --version: $printed"
[ "$printed" = "drape $version" ] || { echo "expected \"drape $version\"" >&2; exit 1; }
in_root drape simulate preset:curtain --frames 10
echo "the package installs and runs on a clean Debian 12"
