#include "sim/stability.h"

#include "solver.h"

namespace drape {

std::string springsStabilityProblem(const Simulation &sim)
{
    // The check needs only the springs' stiffness and the particles' inverse masses; colliders,
    // time and tearing play no part, so an empty frame context is enough.
    const std::vector<detail::ColliderState> noColliders;
    std::vector<std::uint64_t> scratch;
    const detail::FrameContext ctx { sim.world, sim.solver, noColliders, 0, 0.0, sim.solver.frameDt(),
        sim.solver.substepDt(), sim.solver.substeps, scratch };
    for (std::size_t c = 0; c < sim.cloths.size(); ++c) {
        detail::ClothSolverCache cache;
        cache.keepStreams = false; // the springs solver's check reads the records
        cache.ensure(sim.cloths[c]);
        const std::string problem = detail::checkSpringStability(sim.cloths[c], cache, ctx);
        if (!problem.empty())
            return "cloth " + std::to_string(c) + ", " + problem;
    }
    return {};
}

} // namespace drape
