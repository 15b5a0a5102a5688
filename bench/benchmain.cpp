// drape_bench entry point: Google Benchmark's main, plus a line in the report's context that
// states how each solver's "10 iterations" are spent, so figures are quoted with it.
#include "xpbdkernel.h"
#include "xpbdworker.h"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <string>

namespace {

const char *isaName(drape::detail::KernelIsa isa)
{
    switch (isa) {
    case drape::detail::KernelIsa::Avx512:
        return "avx512";
    case drape::detail::KernelIsa::Avx2:
        return "avx2";
    case drape::detail::KernelIsa::Portable:
        break;
    }
    return "portable";
}

} // namespace

int main(int argc, char **argv)
{
    benchmark::AddCustomContext("drape.pairing",
        "xpbd: 10 substeps x 1 iteration; verlet: 1 substep x 10 relaxation passes; "
        "springs: 10 substeps; bullet: 1 step x piterations 10; all at 60 frames/s");
    benchmark::AddCustomContext(
        "drape.cloth", "N x N grid, 1 m x 1 m, structural + shear + bend constraints, top row pinned");
    benchmark::AddCustomContext("drape.threads",
        "one solver thread, except rows named _2threads (two) and _auto (two from "
        + std::to_string(drape::detail::kAutomaticTwoThreadConstraints) + " constraints)");
    // Every other row keeps to one thread, so that its figures compare across machines and
    // with earlier runs whatever the automatic choice (solverbench.cpp sets its own).
    drape::detail::setXpbdTwoThreadConstraints(std::size_t(-1));
    // --drape_kernel=avx512|avx2|portable caps the block kernels (the CPU's best by default),
    // to compare them on one machine.
    for (int i = 1; i < argc; ++i) {
        const char *prefix = "--drape_kernel=";
        if (std::strncmp(argv[i], prefix, std::strlen(prefix)) != 0)
            continue;
        const std::string name = argv[i] + std::strlen(prefix);
        using drape::detail::KernelIsa;
        const KernelIsa isa = name == "avx512" ? KernelIsa::Avx512
            : name == "avx2"                   ? KernelIsa::Avx2
            : name == "portable"               ? KernelIsa::Portable
                                               : KernelIsa(-1);
        if (int(isa) < 0) {
            std::fprintf(stderr, "drape_bench: --drape_kernel=%s: expected avx512, avx2 or portable\n", name.c_str());
            return 1;
        }
        drape::detail::setXpbdKernelLimit(isa);
        for (int j = i; j + 1 < argc; ++j)
            argv[j] = argv[j + 1];
        --argc;
        --i;
    }
    benchmark::AddCustomContext("drape.kernel", isaName(drape::detail::xpbdKernelIsa()));
    // The kernels' speed depends on the compiler that built them (docs/benchmark.md).
#if defined(__clang__)
    benchmark::AddCustomContext("drape.compiler", "clang " __clang_version__);
#elif defined(__GNUC__)
    benchmark::AddCustomContext("drape.compiler", "GCC " __VERSION__);
#endif
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
