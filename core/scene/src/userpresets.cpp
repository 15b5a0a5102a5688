// User presets as files: <data>/presets/<id>.json (scenes) and <data>/presets/fabrics/<id>.json
// (fabrics). A fabric preset is a scene file holding one square of the fabric, so it is read
// and validated by the same parser as every scene, opens as a scene too, and keeps the
// fabric in physical units (g/m² as kg/m², stiffnesses in N/m, damping, tear strain).
#include "scene/userpresets.h"

#include "scene/presets.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

namespace drape {

namespace fs = std::filesystem;

namespace {

bool isBuiltin(const std::string &id)
{
    const auto &list = presetList();
    return std::any_of(list.begin(), list.end(), [&](const PresetDesc &p) { return p.id == id; });
}

std::string folderOf(UserPresetKind kind)
{
    return kind == UserPresetKind::Scene ? userPresetDirectory() : userFabricDirectory();
}

std::string fileOf(UserPresetKind kind, const std::string &id)
{
    return folderOf(kind) + "/" + id + ".json";
}

bool fail(std::string *error, const std::string &message)
{
    if (error)
        *error = message;
    return false;
}

bool prepareWrite(UserPresetKind kind, const std::string &id, bool replace, std::string *error)
{
    if (const std::string why = checkUserPresetId(id, kind); !why.empty())
        return fail(error, why);
    if (folderOf(kind).empty())
        return fail(error, "no user data folder: neither XDG_DATA_HOME nor HOME is set");
    std::error_code ec;
    fs::create_directories(folderOf(kind), ec);
    if (ec)
        return fail(error, "cannot create " + folderOf(kind) + ": " + ec.message());
    if (!replace && fs::exists(fileOf(kind, id)))
        return fail(error, "a user preset \"" + id + "\" already exists (" + fileOf(kind, id) + ")");
    return true;
}

} // namespace

std::string userDataDirectory()
{
    const char *xdg = std::getenv("XDG_DATA_HOME");
    std::string base;
    if (xdg && xdg[0] == '/')
        base = xdg; // the XDG spec ignores relative values, as Qt does
    else if (const char *home = std::getenv("HOME"); home && *home)
        base = std::string(home) + "/.local/share";
    return base.empty() ? std::string() : base + "/Drape/Drape";
}

std::string userPresetDirectory()
{
    const std::string d = userDataDirectory();
    return d.empty() ? d : d + "/presets";
}

std::string userFabricDirectory()
{
    const std::string d = userDataDirectory();
    return d.empty() ? d : d + "/presets/fabrics";
}

std::vector<UserPreset> userPresetList()
{
    std::vector<UserPreset> out;
    for (UserPresetKind kind : { UserPresetKind::Scene, UserPresetKind::Fabric }) {
        std::vector<UserPreset> some;
        std::error_code ec;
        const std::string dir = folderOf(kind);
        if (dir.empty() || !fs::is_directory(dir, ec))
            continue;
        for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
            if (!e.is_regular_file(ec) || e.path().extension() != ".json")
                continue;
            UserPreset p;
            p.id = e.path().stem().string();
            p.kind = kind;
            p.path = e.path().string();
            p.shadowed = kind == UserPresetKind::Scene && isBuiltin(p.id);
            some.push_back(std::move(p));
        }
        std::sort(
            some.begin(), some.end(), [](const UserPreset &a, const UserPreset &b) { return a.id < b.id; });
        out.insert(out.end(), some.begin(), some.end());
    }
    return out;
}

std::string checkUserPresetId(const std::string &id, UserPresetKind kind)
{
    if (id.empty() || id.size() > 64)
        return "a preset name needs 1 to 64 characters";
    if (id.front() == '.' || id.front() == ' ' || id.back() == ' ')
        return "a preset name cannot start with '.' or start or end with a space";
    for (char c : id) {
        const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' '
            || c == '-' || c == '_' || c == '.';
        if (!ok)
            return std::string("a preset name may hold letters, digits, spaces, '-', '_' and '.', not '") + c
                + "'";
    }
    if (kind == UserPresetKind::Scene && isBuiltin(id))
        return "\"" + id + "\" is a built-in preset; choose another name";
    return {};
}

bool saveUserPreset(const std::string &id, const Scene &scene, bool replace, std::string *error)
{
    if (!prepareWrite(UserPresetKind::Scene, id, replace, error))
        return false;
    Scene s = scene;
    s.state.reset(); // a preset is a starting point
    return saveSceneFile(fileOf(UserPresetKind::Scene, id), s, SaveOptions {}, error);
}

bool saveFabricPreset(const std::string &id, const Material &fabric, bool replace, std::string *error)
{
    if (!prepareWrite(UserPresetKind::Fabric, id, replace, error))
        return false;
    Scene s;
    s.name = id;
    s.description = "Fabric preset: one square metre of the fabric.";
    ClothDesc square;
    square.name = id;
    square.material = fabric;
    square.material.name = id;
    s.cloths.push_back(square);
    return saveSceneFile(fileOf(UserPresetKind::Fabric, id), s, SaveOptions {}, error);
}

bool renameUserPreset(UserPresetKind kind, const std::string &from, const std::string &to, std::string *error)
{
    if (const std::string why = checkUserPresetId(to, kind); !why.empty())
        return fail(error, why);
    const std::string src = fileOf(kind, from), dst = fileOf(kind, to);
    std::error_code ec;
    if (!fs::exists(src, ec))
        return fail(error, "no user preset \"" + from + "\" (" + src + ")");
    if (fs::exists(dst, ec))
        return fail(error, "a user preset \"" + to + "\" already exists (" + dst + ")");
    fs::rename(src, dst, ec);
    return ec ? fail(error, "cannot rename " + src + " to " + dst + ": " + ec.message()) : true;
}

bool deleteUserPreset(UserPresetKind kind, const std::string &id, std::string *error)
{
    const std::string file = fileOf(kind, id);
    std::error_code ec;
    if (!fs::remove(file, ec))
        return fail(error,
            ec ? "cannot delete " + file + ": " + ec.message()
               : "no user preset \"" + id + "\" (" + file + ")");
    return true;
}

SceneLoadResult loadUserPreset(const std::string &id)
{
    const std::string file = fileOf(UserPresetKind::Scene, id);
    std::error_code ec;
    if (id.empty() || userPresetDirectory().empty() || !fs::exists(file, ec)) {
        SceneLoadResult r;
        r.error = "preset:" + id + ": no such preset";
        return r;
    }
    return loadSceneFile(file);
}

bool loadFabricPreset(const std::string &id, Material &out, std::string *error)
{
    const std::string file = fileOf(UserPresetKind::Fabric, id);
    SceneLoadResult r = loadSceneFile(file);
    if (!r.ok())
        return fail(error, r.error);
    if (r.scene->cloths.empty())
        return fail(error, file + ": a fabric preset holds one cloth, this file has none");
    out = r.scene->cloths.front().material;
    return true;
}

} // namespace drape
