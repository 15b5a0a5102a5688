// World and solver settings: plain structs with defaults, SI units, grouped by lifetime.
// They are authored (saved in scenes, edited in the parameters dock) and read by the solvers
// at every step, so a change takes effect on the next step without rebuilding anything.
#pragma once

#include "base/vec3.h"

#include <cstdint>
#include <string>
#include <vector>

namespace drape {

/// Wind acting on triangles through their normals and relative velocity.
struct WindSettings {
    Vec3 direction{1.f, 0.f, 0.f}; ///< unit vector (normalised on use)
    float speed = 0.f;              ///< m/s, mean wind speed
    float gustStrength = 0.f;       ///< 0..1, gust amplitude as a fraction of speed
    float gustFrequency = 0.5f;     ///< Hz, typical rate at which gusts change
    std::uint32_t seed = 1;         ///< seed of the gust noise (deterministic)
    float airDensity = 1.2f;        ///< kg/m³
    float dragCoefficient = 1.0f;   ///< dimensionless, normal (pressure) drag
    float liftCoefficient = 0.2f;   ///< dimensionless, lift across the flow

    bool operator==(const WindSettings &) const = default;
};

struct WorldSettings {
    Vec3 gravity{0.f, -9.81f, 0.f}; ///< m/s²
    float airDamping = 0.05f;        ///< 1/s, linear velocity damping (the write-ups' drag)
    WindSettings wind;

    bool operator==(const WorldSettings &) const = default;
};

enum class SolverKind : std::uint8_t {
    Xpbd = 0,    ///< extended position-based dynamics with substeps (default)
    Verlet = 1,  ///< position Verlet with drag, then relaxation passes (the classic write-ups)
    Springs = 2, ///< Hooke springs, explicit / semi-implicit Euler
};

enum class SpringIntegrator : std::uint8_t {
    SemiImplicitEuler = 0, ///< v += a dt; x += v dt (symplectic, the usual choice)
    ExplicitEuler = 1,     ///< x += v dt; v += a dt (the textbook scheme; less stable)
};

struct SolverSettings {
    SolverKind kind = SolverKind::Xpbd;
    float frameRate = 60.f;       ///< Hz; one step() advances 1/frameRate seconds
    int substeps = 10;            ///< steps per frame (XPBD substeps, Verlet/springs sub-frames)
    int iterations = 1;           ///< constraint passes per substep (Verlet: relaxation passes)
    SpringIntegrator integrator = SpringIntegrator::SemiImplicitEuler;
    int maxSplitsPerStep = 64;    ///< cap on vertex splits per substep (keeps violent tears stable)
    bool selfCollision = false;   ///< particle-particle self-collision within each cloth
    bool clothCollision = false;  ///< particles of each cloth against the triangles of the other cloths
    float maxSpeed = 200.f;       ///< m/s; a particle faster than this flags a blow-up

    bool operator==(const SolverSettings &) const = default;

    double frameDt() const { return 1.0 / frameRate; }                 ///< s
    double substepDt() const { return 1.0 / (frameRate * substeps); }  ///< s
};

/// A settings problem: which field, and what is wrong with its value.
struct SettingsError {
    std::string field;   ///< e.g. "solver.substeps"
    std::string message; ///< e.g. "solver.substeps: 0 is out of range, allowed 1..1000"
};

std::vector<SettingsError> validate(const WorldSettings &world);
std::vector<SettingsError> validate(const SolverSettings &solver);

} // namespace drape
