# Compiler options shared by every Drape target.

# The linker. The test command links about 120 executables, each against the whole editor or
# core library: with lld one ASan editor test links in 0.6 s, with gold in 1.4 s, with GNU ld
# (the compiler's default) in 2.5 s. -DDRAPE_LINKER=default keeps the compiler's own; a
# linker the compiler cannot use is reported and left out.
set(DRAPE_LINKER "lld" CACHE STRING "Linker passed as -fuse-ld= (lld, gold, bfd), or default")
if(NOT DRAPE_LINKER STREQUAL "default")
    include(CheckLinkerFlag)
    check_linker_flag(CXX "-fuse-ld=${DRAPE_LINKER}" DRAPE_LINKER_WORKS_${DRAPE_LINKER})
    if(DRAPE_LINKER_WORKS_${DRAPE_LINKER})
        add_link_options(-fuse-ld=${DRAPE_LINKER})
    else()
        message(STATUS "Drape: -fuse-ld=${DRAPE_LINKER} does not work here; linking with the default linker")
    endif()
endif()

if(DRAPE_SANITIZE OR DRAPE_TSAN OR DRAPE_FUZZ)
    # The sanitizer builds need source lines in their reports, not variables for a debugger:
    # line tables only (-g1, after the build type's -g) make their compiles about a third
    # cheaper, which is most of the test command's time.
    add_compile_options(-g1)
endif()

if(DRAPE_SANITIZE)
    # Applied globally so that every target, test and the code they inline agree.
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    # -O1 in the Debug build the test command uses: AddressSanitizer's own advice for usable
    # speed (the suite ran about three times slower at -O0); assertions stay on, and the
    # frame pointer keeps the reports' stacks whole.
    add_compile_options($<$<CONFIG:Debug>:-O1>)
    add_link_options(-fsanitize=address,undefined)
endif()

if(DRAPE_FUZZ)
    # Coverage instrumentation for libFuzzer in every target; only the fuzz target links the
    # fuzzer's main().
    add_compile_options(-fsanitize=fuzzer-no-link)
endif()

if(DRAPE_TSAN)
    # ThreadSanitizer for the timeline's worker thread (and the solver's); it cannot be
    # combined with AddressSanitizer, hence its own build directory (see cmake/quickstart.sh).
    if(DRAPE_SANITIZE)
        message(FATAL_ERROR "DRAPE_TSAN and DRAPE_SANITIZE cannot be combined")
    endif()
    add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
    add_link_options(-fsanitize=thread)
endif()

# Warnings on for our own targets (not for Qt's generated code's includes).
function(drape_set_target_options target)
    target_compile_options(${target} PRIVATE
        $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>
        $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>
        $<$<CXX_COMPILER_ID:GNU,Clang>:-Wno-missing-field-initializers>
        # The per-frame checks combine bools with & on purpose: every check runs, with no
        # branch between them.
        $<$<CXX_COMPILER_ID:Clang>:-Wno-bitwise-instead-of-logical>
        $<$<AND:$<BOOL:${DRAPE_PCH}>,$<CXX_COMPILER_ID:GNU>>:-Winvalid-pch>)
endfunction()
