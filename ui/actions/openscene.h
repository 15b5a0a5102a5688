// Opening a scene file in the editor, with the one question the core cannot ask: a valid
// file over the scene budget may be opened anyway when this machine has the memory for it.
#pragma once

#include "document/document.h"

#include <QString>
#include <QStringList>

#include <memory>

class QWidget;

namespace drape {

/// Loads `path`. When the scene is over the default budget but the available memory holds
/// twice its estimate, asks whether to open it anyway (and then opens it with no budget);
/// when it does not, the error says how much memory it would need. Null with `error` on failure.
std::unique_ptr<Document> openSceneAsking(
    QWidget *parent, const QString &path, QString *error, QStringList *warnings);

} // namespace drape
