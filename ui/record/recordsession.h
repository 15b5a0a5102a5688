// The frame loop of one recording, shared by the editor's Recorder and `drape render`: hands
// the current simulation state to the sink as frame k, then advances the simulation by the
// plan's whole number of steps to the time of frame k + 1 (see recordplan.h for the rule).
// The caller renders each frame in between (or not, for sinks that take meshes only).
#pragma once

#include "record/framesink.h"
#include "record/recordplan.h"

#include <QImage>
#include <QString>

#include <functional>
#include <memory>

namespace drape {

class Simulation;

class RecordSession {
public:
    RecordSession(RecordPlan plan, std::unique_ptr<FrameSink> sink);
    ~RecordSession();

    const RecordPlan &plan() const { return m_plan; }
    FrameSink &sink() { return *m_sink; }

    /// Opens the sink and switches `sim` to the plan's frame rate (restored by finish/cancel).
    /// With a frame advance set, `sim` may be null: the caller keeps its own rate.
    bool open(Simulation *sim, QString *error);
    /// Writes the state of `sim` as the next frame, then steps it to the next frame's time
    /// (not after the last frame of a fixed-length recording).
    bool addFrame(const QImage &image, const Simulation &sim, QString *error);
    /// Advances the simulation one frame instead of Simulation::step() (a replay of a take
    /// steps through its Player, which applies the events of each frame).
    void setStepper(std::function<void()> step) { m_step = std::move(step); }
    /// Instead of stepping, calls `advance(k)` to bring the simulation to the time of output
    /// frame k (the editor samples its document's own frames, which the take is stamped in).
    void setFrameAdvance(std::function<void(int)> advance) { m_advance = std::move(advance); }
    /// Closes the sink (a video is moved into place) and restores the simulation's rate.
    bool finish(Simulation *sim, QString *error);
    /// Stops, removes a partial video, restores the simulation's rate.
    void cancel(Simulation *sim);

    int framesDone() const { return m_framesDone; }
    bool isComplete() const { return m_plan.frames > 0 && m_framesDone >= m_plan.frames; }
    bool wantsImages() const { return m_sink->wantsImages(); }
    /// Set when the simulation blew up: later frames would only repeat the last good state.
    bool simulationFailed() const { return !m_simulationError.isEmpty(); }
    QString simulationError() const { return m_simulationError; }

private:
    void restoreRate(Simulation *sim);

    RecordPlan m_plan;
    std::function<void()> m_step;
    std::function<void(int)> m_advance;
    Simulation *m_sim = nullptr; ///< the simulation stepped, when the session steps it
    std::unique_ptr<FrameSink> m_sink;
    float m_savedFrameRate = 0.f;
    bool m_open = false;
    int m_framesDone = 0;
    QString m_simulationError;
};

} // namespace drape
