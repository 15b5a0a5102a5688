// Solver threads. A large cloth (from kAutomaticTwoThreadConstraints, core/sim/src/xpbdworker.h)
// shares its step with a second thread when the machine has a core for it besides the
// stepping thread's own and the cores held here by other busy threads of the process: the
// timeline holds one for the thread that started its worker (the editor's GUI thread) while
// the worker steps, so on two cores the editor steps on one thread and a headless run on
// two. Results are bit-identical either way (docs/benchmark.md has the figures).
#pragma once

namespace drape {

/// Process-wide count of cores kept busy by threads other than the stepping ones; every
/// holdSolverCore() is paired with a releaseSolverCore().
void holdSolverCore();
void releaseSolverCore();

} // namespace drape
