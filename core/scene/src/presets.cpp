#include "scene/presets.h"

#include "embeddedfiles.h"
#include "scene/userpresets.h"

namespace drape {

namespace {

constexpr std::string_view kPresetPrefix = "preset:";

std::string idOf(const std::string &fileName)
{
    const std::size_t dot = fileName.rfind('.');
    return dot == std::string::npos ? fileName : fileName.substr(0, dot);
}

const EmbeddedFile *findPresetFile(const std::string &id)
{
    for (const EmbeddedFile &f : embeddedPresetFiles()) {
        if (idOf(f.name) == id)
            return &f;
    }
    return nullptr;
}

} // namespace

const std::vector<PresetDesc> &presetList()
{
    static const std::vector<PresetDesc> list = [] {
        std::vector<PresetDesc> out;
        for (const EmbeddedFile &f : embeddedPresetFiles()) {
            const SceneLoadResult r = parseScene(f.data, f.name);
            if (!r.ok())
                continue; // tst_presets checks that every preset loads
            out.push_back({ idOf(f.name), r.scene->name, r.scene->description });
        }
        return out;
    }();
    return list;
}

SceneLoadResult loadPreset(const std::string &id)
{
    const EmbeddedFile *f = findPresetFile(id);
    if (!f) {
        // Not built in: the user's own preset of that name, if there is one.
        SceneLoadResult user = loadUserPreset(id);
        if (user.ok())
            return user;
        SceneLoadResult r;
        std::string known;
        for (const EmbeddedFile &e : embeddedPresetFiles())
            known += (known.empty() ? "" : ", ") + idOf(e.name);
        std::string mine;
        for (const UserPreset &u : userPresetList())
            if (u.kind == UserPresetKind::Scene)
                mine += (mine.empty() ? "" : ", ") + u.id;
        r.error = std::string(kPresetPrefix) + id + ": no such built-in preset (available: " + known + ")"
            + (mine.empty() ? "" : "; user presets: " + mine);
        return r;
    }
    SceneLoadResult r = parseScene(f->data, std::string(kPresetPrefix) + id);
    for (const UserPreset &u : userPresetList()) {
        if (u.shadowed && u.id == id)
            r.warnings.push_back("the built-in preset \"" + id
                + "\" is used; the user preset of the same name (" + u.path
                + ") is ignored until it is renamed");
    }
    return r;
}

SceneLoadResult loadSceneOrPreset(const std::string &nameOrPath, const SceneBudget &budget)
{
    if (nameOrPath.starts_with(kPresetPrefix))
        return loadPreset(nameOrPath.substr(kPresetPrefix.size()));
    return loadSceneFile(nameOrPath, budget);
}

} // namespace drape
