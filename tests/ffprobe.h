// Test helper: what ffprobe reports of a video's first stream (frames counted by decoding).
// Shared by the editor's recording tests and the headless render tests.
#pragma once

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QString>

struct Probe {
    int frames = -1; ///< decoded frames (nb_read_frames)
    int width = -1;
    int height = -1;
    QString rate;        ///< r_frame_rate, e.g. "30/1"
    double duration = -1; ///< s, of the container
};

inline Probe ffprobe(const QString &path)
{
    QProcess p;
    p.start(QStringLiteral("ffprobe"),
            {QStringLiteral("-v"), QStringLiteral("error"), QStringLiteral("-count_frames"), QStringLiteral("-select_streams"),
             QStringLiteral("v:0"), QStringLiteral("-show_entries"),
             QStringLiteral("stream=nb_read_frames,width,height,r_frame_rate:format=duration"), QStringLiteral("-of"),
             QStringLiteral("json"), path});
    p.waitForFinished(60000);
    const QJsonObject root = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    Probe probe;
    const QJsonArray streams = root.value(QStringLiteral("streams")).toArray();
    if (streams.isEmpty())
        return probe;
    const QJsonObject s = streams.first().toObject();
    probe.frames = s.value(QStringLiteral("nb_read_frames")).toString().toInt();
    probe.width = s.value(QStringLiteral("width")).toInt();
    probe.height = s.value(QStringLiteral("height")).toInt();
    probe.rate = s.value(QStringLiteral("r_frame_rate")).toString();
    probe.duration = root.value(QStringLiteral("format")).toObject().value(QStringLiteral("duration")).toString().toDouble();
    return probe;
}
