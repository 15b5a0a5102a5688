// libFuzzer target for the scene reader. Whatever the bytes, parseScene must return (no
// crash, no sanitizer report, no unbounded allocation), and:
//  1. every message is safe to print: no control characters, bounded length;
//  2. a scene that loads saves, re-loads and saves to the same bytes;
//  3. a loaded scene of bounded size and cost simulates two frames and stays finite.
// Build and run: docs/security.md.
#include "scene/scenebudget.h"
#include "scene/scenefile.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

using namespace drape;

namespace {

void check(bool ok, const char *what, const std::string &detail = {})
{
    if (ok)
        return;
    std::fprintf(stderr, "invariant broken: %s\n%s\n", what, detail.substr(0, 2000).c_str());
    std::abort();
}

bool printableMessage(const std::string &m)
{
    if (m.size() > 2100)
        return false;
    for (unsigned char c : m) {
        if (c < 0x20 || c == 0x7f)
            return false;
    }
    return true;
}

// Work of one frame, in constraint (or particle) visits: a budget that keeps each input
// under the fuzzer's per-input timeout.
double frameCost(const Scene &scene)
{
    const SceneTotals t = sceneTotals(scene);
    return double(scene.solver.substeps) * double(scene.solver.iterations)
        * double(t.constraints + t.particles + 1) * double(scene.colliders.size() + 1);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    const SceneLoadResult r = parseScene(text, "fuzz.json");
    check(printableMessage(r.error), "error message not printable", r.error);
    for (const std::string &w : r.warnings)
        check(printableMessage(w), "warning not printable", w);
    if (!r.ok()) {
        check(!r.error.empty(), "failed without a message");
        return 0;
    }
    const Scene &scene = *r.scene;
    const SaveOptions options { scene.state.has_value() };
    const std::string first = serializeScene(scene, options);
    const SceneLoadResult again = parseScene(first, "saved.json");
    check(again.ok(), "a saved scene does not load", again.error + "\n" + first);
    const std::string second = serializeScene(*again.scene, options);
    check(first == second, "save, load, save differs", first + "\n----\n" + second);

    if (sceneTotals(scene).particles <= 5000 && frameCost(scene) <= 2e6) {
        Simulation sim = buildSimulation(scene);
        if (sim.validate().empty()) {
            sim.run(2);
            for (const Cloth &c : sim.cloths) {
                for (std::size_t i = 0; i < c.particles.size(); ++i)
                    check(isFinite(c.particles.position[i]) && isFinite(c.particles.velocity[i]),
                        "simulation produced a non-finite state", sim.status().message);
            }
        }
    }
    return 0;
}
