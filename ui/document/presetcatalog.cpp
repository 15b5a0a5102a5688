#include "document/presetcatalog.h"

#include "scene/presets.h"

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

std::optional<Scene> loadPreset(const QString &key, QString *error, Take *take)
{
    SceneLoadResult result = loadPreset(key.toStdString());
    if (!result.ok()) {
        if (error)
            *error = QString::fromStdString(result.error);
        return std::nullopt;
    }
    if (take)
        *take = std::move(result.take);
    return std::move(result.scene);
}

QStringList presetKeys()
{
    QStringList keys;
    for (const PresetDesc &p : presetList())
        keys << QString::fromStdString(p.id);
    return keys;
}

} // namespace drape
