// Shared by the editor's GUI tests: a document opened on a built-in preset.
#pragma once

#include "document/document.h"
#include "document/presetcatalog.h"

#include <QtGlobal>

#include <memory>

inline std::unique_ptr<drape::Document> presetDocument(const QString &key)
{
    QString error;
    std::optional<drape::Scene> scene = drape::loadPreset(key, &error);
    if (!scene)
        qFatal("%s: %s", qPrintable(key), qPrintable(error));
    return std::make_unique<drape::Document>(std::move(*scene));
}
