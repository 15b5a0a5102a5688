// The command-line modes against hostile scenes and impossible outputs: refusals come before
// any frame is simulated or rendered, name what and where, and print nothing raw from a file.
#include <QtTest>

#include <fstream>

class TestHostileCli : public QObject {
    Q_OBJECT
private slots:
    void deviceFileIsRefused();
    void unwritableOutputIsRefusedBeforeRunning();
    void budgetRefusesAndMaxParticlesRaises();
    void terminalEscapesAreEscaped();
    void unknownVideoExtensionIsRefused();
    void renderShowsThePlanAndRefusesWhatDoesNotFit();
    void renderOutputIsCheckedBeforeRendering();

private:
    struct Run {
        int exitCode = -1;
        QByteArray out;
        QByteArray err;
        qint64 ms = 0;
    };
    Run run(const QStringList &args, int timeoutMs = 120000);
    QString write(const QString &name, const QByteArray &text);
    QTemporaryDir m_dir;
};

TestHostileCli::Run TestHostileCli::run(const QStringList &args, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(m_dir.path());
    QElapsedTimer clock;
    clock.start();
    p.start(QStringLiteral(DRAPE_EXECUTABLE), args);
    Run r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = "did not finish in time";
        return r;
    }
    r.ms = clock.elapsed();
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

QString TestHostileCli::write(const QString &name, const QByteArray &text)
{
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestHostileCli::deviceFileIsRefused()
{
    const Run r = run({ "simulate", "/dev/zero" }, 20000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("drape simulate: cannot read /dev/zero: not a regular file"), r.err.constData());
}

void TestHostileCli::unwritableOutputIsRefusedBeforeRunning()
{
    // /proc takes no new files, even for root (a chmod 0555 folder would not stop root).
    const Run r
        = run({ "simulate", "preset:curtain", "--frames", "100000", "--out", "/proc/drape-out.json" });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(
        r.err.contains("cannot write /proc/drape-out.json: cannot create files in /proc"), r.err.constData());
    QVERIFY2(!r.err.contains("simulating"), r.err.constData());
    const Run seq
        = run({ "simulate", "preset:curtain", "--frames", "100000", "--obj-sequence", "/proc/drape-seq" });
    QCOMPARE(seq.exitCode, 1);
    QVERIFY2(seq.err.contains("/proc/drape-seq"), seq.err.constData());
    QVERIFY2(!seq.err.contains("simulating"), seq.err.constData());
}

void TestHostileCli::budgetRefusesAndMaxParticlesRaises()
{
    QByteArray cloths;
    for (int i = 0; i < 100; ++i)
        cloths += QByteArray(i ? "," : "") + R"({"grid": {"across": 1024, "down": 1024}})";
    const QString bomb
        = write("bomb.json", R"({"format": "drape-scene", "version": 1, "cloths": [)" + cloths + "]}");
    const Run r = run({ "simulate", bomb, "--frames", "1" }, 30000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("bomb.json: /cloths: the scene is too large: it needs 104,857,600 particles"),
        r.err.constData());
    QVERIFY2(r.err.contains("--max-particles"), r.err.constData());
    const QString big = write("big.json",
        R"({"format": "drape-scene", "version": 1, "cloths": [{"grid": {"across": 600, "down": 600}}]})");
    QCOMPARE(run({ "simulate", big, "--frames", "0" }).exitCode, 1);
    const Run raised = run({ "simulate", big, "--frames", "0", "--max-particles", "400000" });
    QVERIFY2(raised.exitCode == 0, raised.err.constData());
    QVERIFY(raised.out.contains("360000 particles"));
    QCOMPARE(run({ "simulate", big, "--max-particles", "lots" }).exitCode, 2);
}

void TestHostileCli::terminalEscapesAreEscaped()
{
    // A warning (an unknown key) in a scene that loads, from a file whose name has escapes too.
    const QString warned = write("\x1b]0;title\x07.json",
        "{\"format\": \"drape-scene\", \"version\": 1, \"\\u001b[2Jkey\": 1, \"cloths\": [{\"name\": "
        "\"x\\u001b[31m\"}]}");
    const Run w = run({ "simulate", warned, "--frames", "1" });
    QCOMPARE(w.exitCode, 0);
    QVERIFY2(
        !w.err.contains('\x1b') && !w.err.contains('\x07') && !w.out.contains('\x1b'), w.err.constData());
    QVERIFY2(w.err.contains("\\x1b[2Jkey: unknown key"), w.err.constData());
    // An error (an unknown material name).
    const QString failed = write("material.json",
        "{\"format\": \"drape-scene\", \"version\": 1, \"cloths\": [{\"material\": "
        "\"\\u001b]0;pwned\\u0007\"}]}");
    const Run r = run({ "simulate", failed, "--frames", "1" });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(!r.err.contains('\x1b') && !r.err.contains('\x07'), r.err.constData());
    QVERIFY2(r.err.contains("unknown material \"\\x1b]0;pwned\\x07\""), r.err.constData());
}

void TestHostileCli::unknownVideoExtensionIsRefused()
{
    const Run r = run({ "render", "preset:flag", "--frames", "2", "--size", "64x64", "-o", "x.avi" });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("unknown video format \".avi\"") && r.err.contains(".mp4, .webm and .gif"),
        r.err.constData());
    QVERIFY(!QFileInfo::exists(m_dir.filePath("x.avi")));
}

void TestHostileCli::renderShowsThePlanAndRefusesWhatDoesNotFit()
{
    // The scene asks for the most it may: 100,000 frames of 8192 × 8192 PNG, about 10 TB.
    const QString scene = write("huge-render.json",
        R"({"format": "drape-scene", "version": 1, "record": {"format": "png-sequence", "frames": 100000,
            "width": 8192, "height": 8192}})");
    const Run r = run({ "render", scene, "-o", "frames" }, 60000);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("planned 100000 frames, 8192×8192 at 30 fps"), r.err.constData());
    QVERIFY2(r.err.contains("TB on disk"), r.err.constData());
    QVERIFY2(r.err.contains("is free there (give --force"), r.err.constData());
    QVERIFY(!QFileInfo::exists(m_dir.filePath("frames")));
    // A small render shows its plan and runs.
    const Run small = run({ "render", "preset:flag", "--frames", "2", "--size", "64x64", "-o", "small" });
    QVERIFY2(small.exitCode == 0, small.err.constData());
    QVERIFY2(small.err.contains("planned 2 frames, 64×64"), small.err.constData());
}

void TestHostileCli::renderOutputIsCheckedBeforeRendering()
{
    const Run r = run(
        { "render", "preset:flag", "--frames", "100000", "--size", "64x64", "-o", "/proc/drape-frames" });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("/proc/drape-frames"), r.err.constData());
    QVERIFY2(!r.err.contains("frame 10/"), r.err.constData());
}

QTEST_GUILESS_MAIN(TestHostileCli)
#include "tst_hostilecli.moc"
