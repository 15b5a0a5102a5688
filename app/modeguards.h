// Checks the command-line modes share, kept apart from the modes themselves: the scene
// budget option, terminal-safe text and the disk estimate of a render. Each mode parses
// its options, validates through these and the core's checks, and only then runs.
#pragma once

#include "scene/scene.h"
#include "scene/scenebudget.h"

#include <QString>

#include <cstdint>

class QCommandLineOption;
class QCommandLineParser;

namespace drape::app {

/// `--max-particles N`: raises (or lowers) the scene budget of scenebudget.h.
QCommandLineOption maxParticlesOption();
/// The budget the command line asks for; false with `error` for a malformed value.
bool budgetFromOptions(const QCommandLineParser &parser, SceneBudget *budget, QString *error);
/// The hint added to an over-budget error on the command line.
QString budgetHint();

/// `text` with control characters escaped (base/printable.h): every line a mode prints
/// that contains file content or names goes through this.
QString terminalSafe(const QString &text);

/// Estimated bytes on disk of one output frame of `format` at `width` × `height` for a
/// scene of `particles` particles. PNG: about 1.5 bytes per pixel (rendered cloth on a plain
/// background compresses 2–4× from RGBA); GIF about 0.5; mp4 and webm about 0.05 (lossy
/// video at the default quality); OBJ about 120 bytes per particle (v, vt, vn and face lines).
std::uint64_t estimatedFrameBytes(RecordFormat format, int width, int height, std::uint64_t particles);

} // namespace drape::app
