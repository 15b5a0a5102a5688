#!/usr/bin/env bash
# Checks the desktop integration files the package installs: the .desktop launcher with
# desktop-file-validate, the AppStream metainfo with appstreamcli (no network), and that every
# man page and icon size was generated. Usage: validate-metadata.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$1"
build="$2"
desktop-file-validate "$src/resources/package/org.drape.Drape.desktop"
appstreamcli validate --no-net --explain "$build/package/org.drape.Drape.metainfo.xml"
for page in drape drape-simulate drape-render drape-import drape-bench-viewport; do
    man="$build/package/man/$page.1.gz"
    [ -s "$man" ] || { echo "missing man page $man" >&2; exit 1; }
done
# The mode pages are made from the mode's own --help: each must document its options
# (roff escapes each dash as \-, undone before the search).
# `grep -q` would stop reading at its first match, and under pipefail the writer's SIGPIPE
# would then fail the check at random: the matches read the whole page.
man_text() { zcat "$build/package/man/$1.1.gz" | sed 's/\\//g'; }
man_text drape-simulate | grep -- '--frames' >/dev/null
man_text drape-render | grep -- '--size' >/dev/null
man_text drape-import | grep -- '--into' >/dev/null
man_text drape-bench-viewport | grep -- '--frames' >/dev/null
man_text drape | grep -- '--version' >/dev/null
man_text drape | grep -- 'drape simulate' >/dev/null
for size in 16 22 24 32 48 64 128 256; do
    png="$build/package/icons/${size}x${size}/drape.png"
    [ -s "$png" ] || { echo "missing icon $png" >&2; exit 1; }
    # PNG header: width and height are 32-bit big-endian at bytes 16..23.
    dims=$(od -An -tu1 -j16 -N8 "$png" | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4 "x" $5*16777216 + $6*65536 + $7*256 + $8 }')
    [ "$dims" = "${size}x${size}" ] || { echo "$png is not ${size}x${size}: $dims" >&2; exit 1; }
done
echo "desktop file, metainfo, man pages and icons are valid"
