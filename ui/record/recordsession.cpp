#include "record/recordsession.h"

#include "sim/simulation.h"

namespace drape {

RecordSession::RecordSession(RecordPlan plan, std::unique_ptr<FrameSink> sink)
    : m_plan(std::move(plan)), m_sink(std::move(sink))
{
}

RecordSession::~RecordSession()
{
    if (m_open)
        m_sink->cancel();
}

bool RecordSession::open(Simulation *sim, QString *error)
{
    if (!m_sink) {
        *error = QStringLiteral("No writer for this format.");
        return false;
    }
    if (!m_sink->open(error))
        return false;
    m_sim = sim;
    m_savedFrameRate = sim ? sim->solver.frameRate : 0.f;
    m_open = true;
    m_framesDone = 0;
    m_simulationError.clear();
    return true;
}

bool RecordSession::addFrame(const QImage &image, const Simulation &sim, QString *error)
{
    if (!m_open) {
        *error = QStringLiteral("The recording is not open.");
        return false;
    }
    if (!m_sink->writeFrame(m_framesDone, image, sim, error))
        return false;
    ++m_framesDone;
    if (isComplete())
        return true;
    // Re-applied every frame: an edit of the solver settings during the recording must not
    // change the spacing of frames in time.
    if (m_advance) {
        m_advance(m_framesDone);
    } else if (m_sim) {
        m_sim->solver.frameRate = float(m_plan.simFrameRate);
        for (int i = 0; i < m_plan.stepsPerFrame && !m_sim->status().blownUp; ++i) {
            if (m_step)
                m_step();
            else
                m_sim->step();
        }
    }
    if (sim.status().blownUp && m_simulationError.isEmpty())
        m_simulationError = QString::fromStdString(sim.status().message);
    return true;
}

bool RecordSession::finish(Simulation *sim, QString *error)
{
    restoreRate(sim);
    if (!m_open)
        return false;
    m_open = false;
    return m_sink->finish(error);
}

void RecordSession::cancel(Simulation *sim)
{
    restoreRate(sim);
    if (m_open)
        m_sink->cancel();
    m_open = false;
}

void RecordSession::restoreRate(Simulation *sim)
{
    if (sim && m_savedFrameRate > 0.f)
        sim->solver.frameRate = m_savedFrameRate;
}

} // namespace drape
