// The frames `drape render` and `drape simulate` take from the folder baked beside the scene
// file (core/timeline/bakedreplay.h), and what they say about it on stderr: which frames came
// from which folder, why a bake there is ignored, and how many frames were simulated.
#pragma once

#include "timeline/bakedreplay.h"

#include <QCommandLineOption>
#include <QString>

#include <memory>
#include <vector>

namespace drape::app {

/// `--no-cache`: simulate every frame even when a valid bake is beside the scene.
QCommandLineOption noCacheOption();

/// The bake's frames for the scene `sceneArgument` names (none for a preset). A bake that is
/// there but stale or damaged is reported (`mode`: "drape render") and gives none; so does a
/// valid one when `notUsedBecause` is not empty (the run needs what a bake does not hold).
/// `folder` receives the folder looked at.
std::vector<std::shared_ptr<const CachedFrame>> bakedFrames(const QString &mode, const QString &sceneArgument,
                                                           const Scene &scene, const Take &take,
                                                           const QString &notUsedBecause, QString *folder);

/// Says which of the frames [first, last] `replay` takes from the bake in `folder`, and that
/// the others are simulated from the scene's start. Says nothing when there is no bake.
void reportBakeUse(const QString &mode, const QString &folder, const BakedReplay &replay, std::uint64_t first,
                   std::uint64_t last);

/// "N frames simulated, M from the baked cache F/" after a run.
QString simulatedSummary(const QString &folder, const BakedReplay &replay);

} // namespace drape::app
