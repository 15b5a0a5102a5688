#!/usr/bin/env bash
# Drape quick start for Debian 12: installs whatever is missing, builds, then
#   run   opens the editor on a built-in scene (the curtain preset)
#   test  runs the whole test suite (normal build, then the ASan + UBSan build, then the
#         threaded core tests under ThreadSanitizer)
#   bench builds the release benchmark and runs it
#   package builds the Debian package and installs and runs it in a clean Debian 12 chroot
#           (needs root and the network; the chroot is cached in /var/cache/drape-debian12)
# Idempotent: when everything is installed and built it only rebuilds what changed.
set -euo pipefail

cd "$(dirname "$0")/.."
mode="${1:-run}"
shift || true

# Debian packages the build, the tests and the benchmark need.
packages=(build-essential cmake ninja-build pkg-config qt6-base-dev libqt6opengl6-dev
          libgl1-mesa-dri libegl-mesa0 libglx-mesa0 libegl-dev xvfb xauth ffmpeg
          nlohmann-json3-dev libassimp-dev libbenchmark-dev libepoxy-dev qt6-svg-dev
          help2man librsvg2-bin desktop-file-utils appstream dpkg-dev lld clang)
[ "$mode" = bench ] && packages+=(libbullet-dev)
# The libFuzzer target of the scene reader (docs/security.md) needs clang's runtimes.
[ "$mode" = test ] && packages+=(libclang-rt-14-dev)
[ "$mode" = package ] && packages+=(debootstrap)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "quickstart: installing ${missing[*]}"
    local sudo=()
    [ "$(id -u)" -ne 0 ] && sudo=(sudo)
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# The editor, the tests' normal build, the benchmark and the package are compiled by clang:
# its build of the solver kernels makes a frame 2-12 % faster than GCC 12's (the kernels'
# own loops 8-21 %; docs/benchmark.md), with the same bits. The sanitizer builds are
# compiled by GCC, so the suite passes under both compilers.
fast_cxx=clang++
checked_cxx=g++

# configure DIR CXX [cmake args...]: configures DIR with the C++ compiler CXX unless it is
# configured with it already (a folder configured with another compiler is configured again:
# CMake then starts its cache afresh). configure_build also builds everything, incrementally.
configure() {
    local dir="$1" cxx="$2" cached=""
    shift 2
    [ -f "$dir/CMakeCache.txt" ] && cached=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$dir/CMakeCache.txt")
    if [ ! -f "$dir/build.ninja" ] || [ "$cached" != "$(command -v "$cxx")" ]; then
        cmake -S . -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" "$@"
    fi
}
configure_build() {
    configure "$@"
    cmake --build "$1" --parallel "$(nproc)"
}

# stage NAME: prints how long the step since the last call took, so that a run's cost can be
# followed stage by stage (the test command on a fresh machine is mostly compiling).
stage_start=$SECONDS
stage() {
    echo "quickstart: $1 took $((SECONDS - stage_start)) s"
    stage_start=$SECONDS
}

install_missing

case "$mode" in
run)
    configure_build build "$fast_cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        echo "quickstart: no display (DISPLAY is unset); starting the editor under xvfb-run instead." >&2
        exec xvfb-run -a ./build/app/drape --preset curtain "$@"
    fi
    exec ./build/app/drape --preset curtain "$@"
    ;;
test)
    stage "installing"
    configure_build build "$fast_cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    stage "the normal build"
    xvfb-run -a -s "-screen 0 1280x1024x24" ctest --test-dir build --output-on-failure --parallel "$(nproc)"
    stage "the normal build's tests"
    # The same suite under AddressSanitizer + UndefinedBehaviorSanitizer. Leak checking is off
    # because Mesa's llvmpipe and fontconfig keep process-lifetime allocations.
    configure_build build-asan "$checked_cxx" -DCMAKE_BUILD_TYPE=Debug -DDRAPE_SANITIZE=ON -DDRAPE_BUILD_BENCH=OFF
    stage "the ASan + UBSan build"
    ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        xvfb-run -a -s "-screen 0 1280x1024x24" ctest --test-dir build-asan --output-on-failure --parallel "$(nproc)"
    stage "the ASan + UBSan tests"
    # A one-minute libFuzzer run of the scene reader under ASan + UBSan (docs/security.md).
    configure_build build-fuzz clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAPE_FUZZ=ON -DDRAPE_SANITIZE=ON \
        -DDRAPE_BUILD_UI=OFF -DDRAPE_BUILD_TESTS=OFF -DDRAPE_BUILD_BENCH=OFF
    stage "the fuzzer's build"
    ctest --test-dir build-fuzz -L fuzz --output-on-failure
    stage "the fuzzer's run"
    # The timeline's worker thread under ThreadSanitizer: the core and the tests that run
    # threads only (no editor), so this adds minutes, not the whole suite again.
    configure build-tsan "$checked_cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDRAPE_TSAN=ON \
        -DDRAPE_BUILD_UI=OFF -DDRAPE_BUILD_BENCH=OFF
    cmake --build build-tsan --parallel "$(nproc)" --target tst_timeline tst_solverthreads
    stage "the ThreadSanitizer build"
    # The functions that run the worker thread (the others are single-threaded), and the
    # solver's second thread (every function of tst_solverthreads runs it).
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp" \
        ./build-tsan/tests/tst_timeline workerFillsAheadWhileTheGuiEdits workerScrubsWhileEditing \
            takeSourceWorkerFollowsDocumentEdits stateRequestIsServedByTheWorkerExactly \
            dragStepsMadeByTheWorkerEqualTheDocumentsOwn
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$PWD/tests/tsan.supp" \
        ./build-tsan/tests/tst_solverthreads
    stage "the ThreadSanitizer tests"
    echo "quickstart: the test command took $SECONDS s"
    ;;
bench)
    configure_build build-release "$fast_cxx" -DCMAKE_BUILD_TYPE=Release -DDRAPE_BUILD_UI=OFF -DDRAPE_BUILD_TESTS=OFF
    ./build-release/bench/drape_bench "$@"
    ;;
package)
    configure_build build "$fast_cxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    # The chroot test is registered for this run only, so that `test` stays display-and-disk only.
    cmake -S . -B build -DDRAPE_PACKAGE_TESTS=ON >/dev/null
    status=0
    stage "the normal build"
    ctest --test-dir build -L 'package|debian' --output-on-failure || status=$?
    stage "the package's tests"
    cmake -S . -B build -DDRAPE_PACKAGE_TESTS=OFF >/dev/null
    exit "$status"
    ;;
*)
    echo "usage: cmake/quickstart.sh run|test|bench|package [args]" >&2
    exit 2
    ;;
esac
