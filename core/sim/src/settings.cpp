// Range checks for the world and solver settings. Every message names the field, its value
// and the allowed range, so the UI and the scene loader can show it as it is.
#include "sim/settings.h"

#include <cmath>
#include <sstream>

namespace drape {

namespace {

std::string number(double v)
{
    std::ostringstream s;
    s << v;
    return s.str();
}

void checkRange(std::vector<SettingsError> &out, const char *field, double value, double lo, double hi,
    const char *allowed)
{
    if (std::isfinite(value) && value >= lo && value <= hi)
        return;
    out.push_back(
        { field, std::string(field) + ": " + number(value) + " is out of range, allowed " + allowed });
}

void checkVec(std::vector<SettingsError> &out, const char *field, const Vec3 &v, double limit)
{
    const float c[3] = { v.x, v.y, v.z };
    const char *axis[3] = { ".x", ".y", ".z" };
    for (int i = 0; i < 3; ++i) {
        if (std::isfinite(c[i]) && std::fabs(c[i]) <= limit)
            continue;
        const std::string name = std::string(field) + axis[i];
        out.push_back({ name,
            name + ": " + number(c[i]) + " is out of range, allowed -" + number(limit) + ".."
                + number(limit) });
    }
}

} // namespace

std::vector<SettingsError> validate(const WorldSettings &world)
{
    std::vector<SettingsError> out;
    checkVec(out, "world.gravity", world.gravity, 1000.0);
    checkRange(out, "world.airDamping", world.airDamping, 0.0, 1000.0, "0..1000 1/s");
    const WindSettings &w = world.wind;
    checkVec(out, "world.wind.direction", w.direction, 1e6);
    if (std::isfinite(lengthSquared(w.direction)) && lengthSquared(w.direction) == 0.f && w.speed != 0.f)
        out.push_back({ "world.wind.direction",
            "world.wind.direction: (0, 0, 0) has no direction, allowed any non-zero vector" });
    checkRange(out, "world.wind.speed", w.speed, 0.0, 500.0, "0..500 m/s");
    checkRange(out, "world.wind.gustStrength", w.gustStrength, 0.0, 1.0, "0..1");
    checkRange(out, "world.wind.gustFrequency", w.gustFrequency, 0.0, 100.0, "0..100 Hz");
    checkRange(out, "world.wind.airDensity", w.airDensity, 0.0, 100.0, "0..100 kg/m³");
    checkRange(out, "world.wind.dragCoefficient", w.dragCoefficient, 0.0, 10.0, "0..10");
    checkRange(out, "world.wind.liftCoefficient", w.liftCoefficient, 0.0, 10.0, "0..10");
    return out;
}

std::vector<SettingsError> validate(const SolverSettings &solver)
{
    std::vector<SettingsError> out;
    if (std::uint8_t(solver.kind) > std::uint8_t(SolverKind::Springs))
        out.push_back({ "solver.kind",
            "solver.kind: " + number(int(solver.kind))
                + " is unknown, allowed 0 (xpbd), 1 (verlet), 2 (springs)" });
    // frameRate <= 0 would make the time step zero, negative or infinite.
    if (!(std::isfinite(solver.frameRate) && solver.frameRate > 0.f && solver.frameRate <= 10000.f))
        out.push_back({ "solver.frameRate",
            "solver.frameRate: " + number(solver.frameRate)
                + " Hz is out of range, allowed > 0 and <= 10000 Hz" });
    checkRange(out, "solver.substeps", solver.substeps, 1, 1000, "1..1000");
    checkRange(out, "solver.iterations", solver.iterations, 1, 1000, "1..1000");
    if (std::uint8_t(solver.integrator) > std::uint8_t(SpringIntegrator::ExplicitEuler))
        out.push_back({ "solver.integrator",
            "solver.integrator: " + number(int(solver.integrator))
                + " is unknown, allowed 0 (semi-implicit Euler), 1 (explicit Euler)" });
    checkRange(out, "solver.maxSplitsPerStep", solver.maxSplitsPerStep, 0, 1000000, "0..1000000");
    if (!(std::isfinite(solver.maxSpeed) && solver.maxSpeed > 0.f))
        out.push_back({ "solver.maxSpeed",
            "solver.maxSpeed: " + number(solver.maxSpeed) + " m/s is out of range, allowed > 0" });
    return out;
}

} // namespace drape
