// The one table of scalar scene parameters: name, unit, range, default, scale, and how to
// read and write each on a Scene. The parameters dock builds its rows from it, the scene
// loader validates ranges with it, and batch tools can set values by key.
#pragma once

#include "scene/scene.h"

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
    /// Integer-valued choice: value i means enumNames[i] (solver kind, tear mode, collider
    /// kind); the strings are also what the scene file writes. Empty for plain numbers.
    std::vector<std::string> enumNames;
    bool toggle = false;       ///< on/off (0 or 1): a check box
    bool needsRebuild = false; ///< rebuilds the cloth: a structural scene edit at any frame (grid resolution, rope count)
    std::string help;      ///< one-line tooltip
    /// Reads/writes the value. `index` selects the cloth (Material, Cloth groups) or the
    /// collider (Collider group); ignored otherwise.
    std::function<double(const Scene &, int index)> get;
    std::function<void(Scene &, int index, double value)> set;
    /// Whether the parameter means anything for this cloth / collider (a sphere has no
    /// half extents, an explicit cloth no grid size). Always true when not set.
    std::function<bool(const Scene &, int index)> appliesTo;

    bool applies(const Scene &scene, int index) const { return !appliesTo || appliesTo(scene, index); }
};

/// Every scalar parameter, in display order.
const std::vector<ParamDesc> &sceneParams();
/// The parameter with `key`, or nullptr.
const ParamDesc *findParam(const std::string &key);

/// Applies the scene's world/solver settings, materials and collider values to a running
/// simulation without rebuilding it (no jolt: positions and velocities are kept; per
/// constraint compliance and damping are re-derived from the materials).
///
/// Generated cloths get compliance, damping and tear strain of every constraint re-derived
/// from their material. Explicit cloths carry per-constraint values: the material setters of
/// this table rescale those values in the scene (new/old), and this function copies them to
/// the running constraints they match (same particles and kind); constraints created while
/// running (split-vertex tears) are scaled by the ratio found for their kind. Particle masses
/// are scaled when the cloth's total mass changed (areal density edits).
void applySceneSettings(const Scene &scene, Simulation &sim);

/// Name of the group as shown in the UI ("World", "Wind", ...).
const char *paramGroupName(ParamGroup group);

} // namespace drape
