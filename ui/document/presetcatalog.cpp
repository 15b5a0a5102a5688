#include "document/presetcatalog.h"

#include "scene/presets.h"
#include "scene/userpresets.h"

namespace drape {

const std::vector<PresetInfo> &builtinPresets()
{
    static const std::vector<PresetInfo> presets = [] {
        std::vector<PresetInfo> out;
        for (const PresetDesc &p : presetList())
            out.push_back({QString::fromStdString(p.id), QString::fromStdString(p.displayName),
                           QString::fromStdString(p.description)});
        return out;
    }();
    return presets;
}

std::optional<Scene> loadPreset(const QString &key, QString *error, QStringList *warnings, Take *take)
{
    SceneLoadResult result = loadPreset(key.toStdString());
    if (warnings)
        for (const std::string &w : result.warnings)
            warnings->append(QString::fromStdString(w));
    if (!result.ok()) {
        if (error)
            *error = QString::fromStdString(result.error);
        return std::nullopt;
    }
    if (take)
        *take = std::move(result.take);
    return std::move(result.scene);
}

QStringList userScenePresets()
{
    QStringList ids;
    for (const UserPreset &u : userPresetList())
        if (u.kind == UserPresetKind::Scene)
            ids << QString::fromStdString(u.id);
    return ids;
}

QStringList presetKeys()
{
    QStringList keys;
    for (const PresetDesc &p : presetList())
        keys << QString::fromStdString(p.id);
    return keys;
}

} // namespace drape
