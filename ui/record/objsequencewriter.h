// A numbered sequence of Wavefront OBJ meshes (frame_0000.obj, ...), one per recorded frame,
// for rendering the cloth in another package. Each file holds every cloth as its own object
// with positions, smooth normals, texture coordinates from the rest shape, and triangles.
// Nothing is rendered for this sink.
#pragma once

#include "record/framesink.h"

#include <QString>

namespace drape {

class ObjSequenceWriter final : public FrameSink {
public:
    ObjSequenceWriter(QString folder, QString pattern = QStringLiteral("frame_%04d.obj"));

    bool open(QString *error) override;
    bool writeFrame(int index, const QImage &image, const Simulation &sim, QString *error) override;
    bool finish(QString *error) override;
    void cancel() override {}
    bool wantsImages() const override { return false; }
    int filesWritten() const override { return m_written; }
    QString target() const override { return m_folder; }

    QString filePath(int index) const;

private:
    QString m_folder;
    QString m_pattern;
    int m_written = 0;
};

} // namespace drape
