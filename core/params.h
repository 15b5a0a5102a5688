// The one table of scalar scene parameters: name, unit, range, default, scale, and how to
// read and write each on a Scene. The parameters dock builds its rows from it, the scene
// loader validates ranges with it, and batch tools can set values by key.
#pragma once

#include "scene.h"

#include <functional>
#include <string>
#include <vector>

namespace drape {

enum class ParamGroup : std::uint8_t { World, Wind, Solver, Material, Cloth, Collider };

struct ParamDesc {
    std::string key;     ///< stable key, also the JSON path below its group ("world.gravity.y", "material.stretchStiffness")
    std::string label;   ///< shown in the UI ("Gravity Y")
    std::string unit;    ///< shown in the UI ("m/s²"); empty for dimensionless
    ParamGroup group = ParamGroup::World;
    double min = 0.0;    ///< allowed range (inclusive)
    double max = 1.0;
    double defaultValue = 0.0;
    bool logScale = false; ///< sliders move in log space (stiffness, compliance)
    bool integer = false;  ///< substeps, iterations, seeds
    std::string help;      ///< one-line tooltip
    /// Reads/writes the value. `index` selects the cloth (Material, Cloth groups) or the
    /// collider (Collider group); ignored otherwise.
    std::function<double(const Scene &, int index)> get;
    std::function<void(Scene &, int index, double value)> set;
};

/// Every scalar parameter, in display order.
const std::vector<ParamDesc> &sceneParams();
/// The parameter with `key`, or nullptr.
const ParamDesc *findParam(const std::string &key);

/// Applies the scene's world/solver settings, materials and collider values to a running
/// simulation without rebuilding it (no jolt: positions and velocities are kept; per
/// constraint compliance and damping are re-derived from the materials).
void applySceneSettings(const Scene &scene, Simulation &sim);

} // namespace drape
