// User presets from the command line: `drape --list-presets` lists them below the built-in
// ones, and `preset:NAME` resolves them in the batch modes.
#include "drapeprocess.h"

#include "scene/presets.h"
#include "scene/userpresets.h"

#include <QtTest>

using namespace drape;

class TestUserPresetsCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void listedBelowBuiltins();
    void simulateResolvesUserPreset();

private:
    QTemporaryDir m_dir;
};

void TestUserPresetsCli::initTestCase()
{
    QVERIFY(m_dir.isValid());
    // The child processes inherit this environment, so they see the same folder.
    qputenv("XDG_DATA_HOME", m_dir.filePath("data").toUtf8());
    Scene s = *loadPreset("curtain").scene;
    s.name = "Short curtain";
    std::string error;
    QVERIFY2(saveUserPreset("short-curtain", s, false, &error), error.c_str());
    QVERIFY2(saveFabricPreset("felt", Material {}, false, &error), error.c_str());
}

void TestUserPresetsCli::listedBelowBuiltins()
{
    const DrapeRun r = runDrape({ "--list-presets" }, m_dir.path());
    QCOMPARE(r.exitCode, 0);
    const int builtin = int(r.out.indexOf(QLatin1String("curtain")));
    const int header = int(r.out.indexOf(QLatin1String("User presets (")));
    const int mine = int(r.out.indexOf(QLatin1String("short-curtain")));
    QVERIFY2(builtin >= 0 && header > builtin && mine > header, qPrintable(r.out));
    QVERIFY(r.out.contains(QRegularExpression(QStringLiteral("felt +fabric"))));
}

void TestUserPresetsCli::simulateResolvesUserPreset()
{
    const QString out = m_dir.filePath("short.json");
    const DrapeRun r
        = runDrape({ "simulate", "preset:short-curtain", "--frames", "2", "--out", out }, m_dir.path());
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const SceneLoadResult loaded = loadSceneFile(out.toStdString());
    QVERIFY2(loaded.ok(), loaded.error.c_str());
    QCOMPARE(loaded.scene->name, std::string("Short curtain"));
}

QTEST_GUILESS_MAIN(TestUserPresetsCli)
#include "tst_userpresetscli.moc"
