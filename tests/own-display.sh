#!/bin/sh
# Runs one editor test on an X server of its own: `own-display.sh TEST [ARGS...]`.
#
# QOpenGLWidget needs a real X server (Qt's offscreen platform crashes it on Qt 6.4), and two
# tests on one server without a window manager take the keyboard focus from each other's
# windows. With a server each, the editor tests run side by side like the others. Xvfb picks
# a free display number itself and writes it to a descriptor once it accepts connections
# (-displayfd), so two of these starting at once never race for a number.
set -u

dir=$(mktemp -d "${TMPDIR:-/tmp}/drape-display.XXXXXX") || exit 1
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$dir/number" >"$dir/log" 2>&1 &
server=$!

stop_server() {
    kill "$server" 2>/dev/null
    wait "$server" 2>/dev/null
    rm -rf "$dir"
}
trap 'stop_server; exit 130' INT TERM

# Xvfb writes the number (and a newline) when it is ready; give it 30 s.
tries=0
until grep -q '^[0-9][0-9]*$' "$dir/number" 2>/dev/null; do
    if ! kill -0 "$server" 2>/dev/null || [ "$tries" -ge 300 ]; then
        echo "own-display.sh: Xvfb did not start:" >&2
        cat "$dir/log" >&2
        stop_server
        exit 1
    fi
    tries=$((tries + 1))
    sleep 0.1
done

DISPLAY=":$(cat "$dir/number")" "$@"
status=$?
stop_server
exit "$status"
