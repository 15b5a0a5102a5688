// User presets: the core finds the folder the editor's QStandardPaths::AppDataLocation names;
// a scene and a fabric preset round-trip; built-in names are refused and never shadowed;
// rename and delete work and name their problems.
#include "scene/presets.h"
#include "scene/userpresets.h"

#include <QCoreApplication>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace drape;

class TestUserPresets : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void folderIsTheEditorsAppDataLocation();
    void scenePresetRoundTrips();
    void fabricPresetRoundTrips();
    void builtinNamesAreRefused();
    void handPlacedShadowIsReportedNotUsed();
    void renameAndDelete();

private:
    QTemporaryDir m_home;
};

void TestUserPresets::initTestCase()
{
    QVERIFY(m_home.isValid());
    qputenv("XDG_DATA_HOME", m_home.path().toUtf8());
}

void TestUserPresets::folderIsTheEditorsAppDataLocation()
{
    // The editor's names (app/editorcommand.cpp).
    QCoreApplication::setApplicationName(QStringLiteral("Drape"));
    QCoreApplication::setOrganizationName(QStringLiteral("Drape"));
    const QString qt = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QCOMPARE(QString::fromStdString(userDataDirectory()), qt);
    QVERIFY(qt.startsWith(m_home.path()));
    QCOMPARE(QString::fromStdString(userPresetDirectory()), qt + "/presets");
}

void TestUserPresets::scenePresetRoundTrips()
{
    Scene scene = *loadPreset("curtain").scene;
    scene.name = "My curtain";
    scene.cloths[0].material.arealDensity = 0.321f;
    std::string error;
    QVERIFY2(saveUserPreset("my curtain", scene, false, &error), error.c_str());
    // Listed, and resolved by preset:NAME like a built-in one.
    const std::vector<UserPreset> list = userPresetList();
    QCOMPARE(list.size(), std::size_t(1));
    QCOMPARE(list[0].id, std::string("my curtain"));
    QCOMPARE(list[0].kind, UserPresetKind::Scene);
    QVERIFY(!list[0].shadowed);
    const SceneLoadResult r = loadSceneOrPreset("preset:my curtain");
    QVERIFY2(r.ok(), r.error.c_str());
    QVERIFY(*r.scene == scene);
    // Saving again under the same name needs `replace`.
    QVERIFY(!saveUserPreset("my curtain", scene, false, &error));
    QVERIFY2(error.find("already exists") != std::string::npos, error.c_str());
    QVERIFY(saveUserPreset("my curtain", scene, true, &error));
    // An unknown name lists the user presets with the built-in ones.
    const SceneLoadResult missing = loadPreset("nothing");
    QVERIFY(!missing.ok());
    QVERIFY2(missing.error.find("user presets: my curtain") != std::string::npos, missing.error.c_str());
}

void TestUserPresets::fabricPresetRoundTrips()
{
    Material felt;
    felt.arealDensity = 0.35f; // 350 g/m²
    felt.stretchStiffness = 1234.5f;
    felt.shearStiffness = 98.f;
    felt.bendRigidity = 7.25f;
    felt.damping = 0.031f;
    felt.tearStrain = 0.42f;
    std::string error;
    QVERIFY2(saveFabricPreset("felt", felt, false, &error), error.c_str());
    Material back;
    QVERIFY2(loadFabricPreset("felt", back, &error), error.c_str());
    Material expected = felt;
    expected.name = "felt";
    QVERIFY(back == expected);
    bool listed = false;
    for (const UserPreset &p : userPresetList())
        listed = listed || (p.id == "felt" && p.kind == UserPresetKind::Fabric);
    QVERIFY(listed);
    // A fabric may share a built-in scene's name: it is a different kind of preset.
    QVERIFY(checkUserPresetId("curtain", UserPresetKind::Fabric).empty());
}

void TestUserPresets::builtinNamesAreRefused()
{
    std::string error;
    QVERIFY(!saveUserPreset("curtain", Scene {}, true, &error));
    QVERIFY2(error.find("\"curtain\" is a built-in preset") != std::string::npos, error.c_str());
    QVERIFY(!checkUserPresetId("a/b", UserPresetKind::Scene).empty());
    QVERIFY(!checkUserPresetId("", UserPresetKind::Scene).empty());
    QVERIFY(!checkUserPresetId(".hidden", UserPresetKind::Scene).empty());
    QVERIFY(checkUserPresetId("Denim jacket_2", UserPresetKind::Scene).empty());
}

void TestUserPresets::handPlacedShadowIsReportedNotUsed()
{
    // A file put there by hand with a built-in's name: listed as shadowed, and preset:curtain
    // still opens the built-in curtain, with a warning naming the file.
    Scene fake;
    fake.name = "Not the curtain";
    const std::string path = userPresetDirectory() + "/curtain.json";
    std::string error;
    QVERIFY(saveSceneFile(path, fake, SaveOptions {}, &error));
    bool shadowed = false;
    for (const UserPreset &p : userPresetList())
        shadowed = shadowed || (p.id == "curtain" && p.shadowed);
    QVERIFY(shadowed);
    const SceneLoadResult r = loadPreset("curtain");
    QVERIFY(r.ok());
    QCOMPARE(r.scene->name, std::string("Curtain"));
    QCOMPARE(r.warnings.size(), std::size_t(1));
    QVERIFY2(r.warnings[0].find(path) != std::string::npos, r.warnings[0].c_str());
    std::filesystem::remove(path);
}

void TestUserPresets::renameAndDelete()
{
    std::string error;
    QVERIFY(saveUserPreset("draft", Scene {}, true, &error));
    QVERIFY2(renameUserPreset(UserPresetKind::Scene, "draft", "final", &error), error.c_str());
    QVERIFY(!loadUserPreset("draft").ok());
    QVERIFY(loadUserPreset("final").ok());
    QVERIFY(!renameUserPreset(UserPresetKind::Scene, "final", "curtain", &error));
    QVERIFY(error.find("built-in") != std::string::npos);
    QVERIFY(!renameUserPreset(UserPresetKind::Scene, "nope", "other", &error));
    QVERIFY2(error.find("no user preset \"nope\"") != std::string::npos, error.c_str());
    QVERIFY(deleteUserPreset(UserPresetKind::Scene, "final", &error));
    QVERIFY(!loadUserPreset("final").ok());
    QVERIFY(!deleteUserPreset(UserPresetKind::Scene, "final", &error));
    QVERIFY2(error.find("no user preset \"final\"") != std::string::npos, error.c_str());
}

QTEST_GUILESS_MAIN(TestUserPresets)
#include "tst_userpresets.moc"
