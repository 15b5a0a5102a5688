// kill -9 during a save: `drape simulate --out` is killed again and again at random moments
// of its run, mostly while it writes a large scene file. The target must always be absent,
// the old file or the new file, byte for byte; and the temporaries the kills leave behind
// must be gone after the next complete save into that folder.
#include "../sanitizers.h"
#include "scene/scenefile.h"

#include <QtTest>

#include <csignal>
#include <random>

class TestKillSave : public QObject {
    Q_OBJECT
private slots:
    void killedSavesLeaveOldOrNewAndNoTemporaries();
};

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The sheet's side in particles. At 300 (90,000 particles) the scene file with state is about
// 20 MB, so a save takes a while.
constexpr int kSide = 300;

QStringList temporaries(const QString &dir)
{
    return QDir(dir).entryList({ QStringLiteral(".out.json.drape-*") }, QDir::Files | QDir::Hidden);
}

} // namespace

void TestKillSave::killedSavesLeaveOldOrNewAndNoTemporaries()
{
    // What a kill leaves on disk is the same in every build, and a killed process reports
    // nothing to a sanitizer: the normal build's run is the test, the sanitizer builds would
    // spend minutes repeating it.
    if (drape::testing::kSanitizedBuild)
        QSKIP("checked by the normal build");
    QTemporaryDir dir;
    const QString scene = dir.filePath(QStringLiteral("big.json"));
    {
        QFile f(scene);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral(
            R"({"format": "drape-scene", "version": 1, "cloths": [{"grid": {"across": %1, "down": %1}}]})")
                    .arg(kSide)
                    .toUtf8());
    }
    const QString target = dir.filePath(QStringLiteral("out.json"));
    const auto start = [&](QProcess &p, const char *frames) {
        p.start(QStringLiteral(DRAPE_EXECUTABLE),
            { QStringLiteral("simulate"), scene, QStringLiteral("--frames"), QString::fromLatin1(frames),
                QStringLiteral("--out"), target });
        QVERIFY(p.waitForStarted());
    };
    const auto complete = [&](const char *frames) {
        QProcess p;
        start(p, frames);
        QVERIFY(p.waitForFinished(300000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    };

    // The new file (one frame) and the old one (no frames), each written completely once.
    QElapsedTimer clock;
    clock.start();
    complete("1");
    const qint64 runMs = clock.elapsed();
    const QByteArray newer = readAll(target);
    complete("0");
    const QByteArray older = readAll(target);
    QVERIFY(!newer.isEmpty() && !older.isEmpty() && newer != older);
    QVERIFY(drape::parseScene(older.toStdString(), "old").ok());

    std::mt19937 random(16);
    std::uniform_int_distribution<qint64> when(runMs / 4, runMs + runMs / 4);
    int kills = 0, leftBehind = 0;
    for (int i = 0; i < 24; ++i) {
        if (i == 12)
            QFile::remove(target); // also kill saves that have no old file to replace
        const bool hadTarget = QFileInfo::exists(target);
        QProcess p;
        const int before = int(temporaries(dir.path()).size());
        start(p, "1");
        // QProcess learns that its child ended only in waitFor... calls: poll through them.
        bool finished = false;
        if (i % 2 == 0) {
            finished = p.waitForFinished(int(when(random)));
        } else {
            // Odd runs: kill while the temporary file is being written.
            while (!finished && int(temporaries(dir.path()).size()) <= before)
                finished = p.waitForFinished(1);
            if (!finished)
                finished = p.waitForFinished(int(random() % 20));
        }
        if (!finished) {
            ::kill(pid_t(p.processId()), SIGKILL);
            ++kills;
            QVERIFY(p.waitForFinished(300000));
        }
        const QByteArray now = readAll(target);
        if (!QFileInfo::exists(target))
            QVERIFY2(!hadTarget, "the old file vanished");
        else
            QVERIFY2(now == older || now == newer, "the target is neither the old nor the new file");
        leftBehind = std::max(leftBehind, int(temporaries(dir.path()).size()));
    }
    qInfo("%d of 24 runs killed; up to %d temporaries were left behind before the next save", kills,
        leftBehind);
    QVERIFY(kills >= 12);
    QVERIFY(leftBehind >= 1); // the kills did hit saves midway

    // The next complete save removes every temporary of a killed save (their processes are
    // gone and they have not been written for the quiet time).
    QThread::sleep(3);
    complete("1");
    QCOMPARE(readAll(target), newer);
    QCOMPARE(temporaries(dir.path()), QStringList());
    // Nothing else either, whatever its naming.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden, QDir::Name),
        QStringList({ QStringLiteral("big.json"), QStringLiteral("out.json") }));
}

// QtTest stops a function after 5 minutes; 26 runs on a busy machine can take longer, so the
// limit is raised below CTest's own timeout of 15 minutes before QtTest reads it.
int main(int argc, char **argv)
{
    qputenv("QTEST_FUNCTION_TIMEOUT", "840000"); // ms
    QCoreApplication app(argc, argv);
    TestKillSave test;
    return QTest::qExec(&test, argc, argv);
}
#include "tst_killsave.moc"
