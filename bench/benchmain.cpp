// drape_bench entry point: Google Benchmark's main, plus a line in the report's context that
// states how each solver's "10 iterations" are spent, so figures are quoted with it.
#include "xpbdworker.h"

#include <benchmark/benchmark.h>

#include <cstddef>
#include <string>

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
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv))
        return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
