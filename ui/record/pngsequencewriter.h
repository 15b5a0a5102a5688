// A numbered PNG sequence (frame_0000.png, frame_0001.png, ...). PNG compression is slow
// enough to stall the editor at large sizes, so a worker thread writes the files; a short
// bounded queue makes writeFrame() wait only when the disk or the compressor falls behind,
// which keeps memory use to a few frames whatever the recording length.
#pragma once

#include "record/framesink.h"

#include <QString>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace drape {

struct PngSequenceSettings {
    QString folder;                              ///< created when missing
    QString pattern = QStringLiteral("frame_%04d.png"); ///< printf-style frame number: %d or %0Nd, once
    int firstNumber = 0;                         ///< number of frame 0 in the file names
    int queueLength = 4;                         ///< frames waiting to be compressed before writeFrame() blocks
};

class PngSequenceWriter final : public FrameSink {
public:
    explicit PngSequenceWriter(PngSequenceSettings settings);
    ~PngSequenceWriter() override;

    /// Checks a name pattern: exactly one %d / %0Nd (N ≤ 9), no path separators. Empty when valid.
    static QString validatePattern(const QString &pattern);
    /// `pattern` with its number replaced by `number` ("frame_%04d.png", 7 → "frame_0007.png").
    static QString fileName(const QString &pattern, int number);

    bool open(QString *error) override;
    bool writeFrame(int index, const QImage &image, const Simulation &sim, QString *error) override;
    bool finish(QString *error) override;
    void cancel() override;
    int filesWritten() const override;
    QString target() const override { return m_settings.folder; }

    QString filePath(int index) const;

private:
    struct Job {
        QString path;
        QImage image;
    };
    void run();
    void stopWorker(bool dropQueued);

    PngSequenceSettings m_settings;
    std::thread m_worker;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;     // worker: a job arrived or stop
    std::condition_variable m_progress; // producer: a job finished
    std::deque<Job> m_queue;
    bool m_stop = false;
    bool m_busy = false;
    int m_written = 0;
    QString m_error; // first write error, reported by the next call
};

} // namespace drape
