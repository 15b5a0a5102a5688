#include "presetcatalog.h"

#include "embeddedfiles.h"
#include "scenefile.h"

#include <QCoreApplication>

namespace drape {

namespace {

QString keyOf(const EmbeddedFile &file)
{
    QString key = QString::fromStdString(file.name);
    if (key.endsWith(QLatin1String(".json")))
        key.chop(5);
    return key;
}

} // namespace

const std::vector<PresetInfo> &builtinPresets()
{
    static const std::vector<PresetInfo> presets = [] {
        std::vector<PresetInfo> out;
        for (const EmbeddedFile &file : embeddedPresetFiles()) {
            SceneLoadResult result = parseScene(file.data, file.name);
            if (!result.ok()) {
                qWarning("drape: built-in preset %s does not load: %s", file.name.c_str(), result.error.c_str());
                continue;
            }
            out.push_back({keyOf(file), QString::fromStdString(result.scene->name),
                           QString::fromStdString(result.scene->description)});
        }
        return out;
    }();
    return presets;
}

std::optional<Scene> loadPreset(const QString &key, QString *error)
{
    for (const EmbeddedFile &file : embeddedPresetFiles()) {
        if (keyOf(file) != key)
            continue;
        SceneLoadResult result = parseScene(file.data, file.name);
        if (!result.ok()) {
            if (error)
                *error = QString::fromStdString(result.error);
            return std::nullopt;
        }
        return std::move(result.scene);
    }
    if (error)
        *error = QCoreApplication::translate("drape", "no built-in preset named \"%1\" (known presets: %2)").arg(key, presetKeys().join(QLatin1String(", ")));
    return std::nullopt;
}

QStringList presetKeys()
{
    QStringList keys;
    for (const EmbeddedFile &file : embeddedPresetFiles())
        keys << keyOf(file);
    return keys;
}

} // namespace drape
