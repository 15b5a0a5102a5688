// End-to-end tests of `drape render`: run with no display server at all (DISPLAY and
// WAYLAND_DISPLAY removed), each format gives exactly the requested frames at the requested
// size and rate (checked with ffprobe, independently of Drape's code), frames change over
// time, odd sizes are handled as documented, a missing ffmpeg is reported while PNG still
// works, an interrupted render leaves no video and no temporary file, and bad input gets a
// clear error.
#include "../ffprobe.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

QProcessEnvironment headlessEnvironment()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    return env;
}

Run runDrape(const QStringList &args, const QProcessEnvironment &env = headlessEnvironment())
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DRAPE_EXECUTABLE), QStringList{QStringLiteral("render")} + args);
    Run r;
    if (!p.waitForStarted(10000) || !p.waitForFinished(300000)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("drape did not finish");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err = QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

QStringList entries(const QString &folder, const QString &filter)
{
    return QDir(folder).entryList({filter}, QDir::Files | QDir::Hidden, QDir::Name);
}

QByteArray fileBytes(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool haveFfmpeg()
{
    return !QStandardPaths::findExecutable(QStringLiteral("ffmpeg")).isEmpty() &&
           !QStandardPaths::findExecutable(QStringLiteral("ffprobe")).isEmpty();
}

} // namespace

class TestRender : public QObject {
    Q_OBJECT
private slots:
    void pngSequenceWithoutDisplay();
    void videoFormats_data();
    void videoFormats();
    void oddSizes_data();
    void oddSizes();
    void objSequence();
    void startBeginsAtThatFrame();
    void rateThatDoesNotDivideTheScenes();
    void missingFfmpeg();
    void interruptLeavesNoVideo();
    void videoPathIsAFolder();
    void badInput_data();
    void badInput();
    void fabricImageFromTheCommandLine();
};

void TestRender::pngSequenceWithoutDisplay()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("frames"));
    const Run r = runDrape({QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("30"),
                            QStringLiteral("--fps"), QStringLiteral("30"), QStringLiteral("--size"),
                            QStringLiteral("160x120"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList files = entries(out, QStringLiteral("*"));
    QCOMPARE(files.size(), 30);
    QCOMPARE(files.first(), QStringLiteral("frame_0000.png"));
    QCOMPARE(files.last(), QStringLiteral("frame_0029.png"));
    if (haveFfmpeg()) {
        const Probe probe = ffprobe(QDir(out).filePath(files.first()));
        QCOMPARE(probe.width, 160);
        QCOMPARE(probe.height, 120);
    }
    // The flag moves in the wind: no two sampled frames are the same.
    const QByteArray f0 = fileBytes(QDir(out).filePath(files.at(0)));
    const QByteArray f15 = fileBytes(QDir(out).filePath(files.at(15)));
    const QByteArray f29 = fileBytes(QDir(out).filePath(files.at(29)));
    QVERIFY(!f0.isEmpty());
    QVERIFY(f0 != f15);
    QVERIFY(f15 != f29);
    QVERIFY(f0 != f29);
}

void TestRender::videoFormats_data()
{
    QTest::addColumn<QString>("suffix");
    QTest::newRow("mp4") << QStringLiteral("mp4");
    QTest::newRow("webm") << QStringLiteral("webm");
    QTest::newRow("gif") << QStringLiteral("gif");
}

void TestRender::videoFormats()
{
    if (!haveFfmpeg())
        QSKIP("ffmpeg / ffprobe are not installed");
    QFETCH(QString, suffix);
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("clip.") + suffix);
    const Run r = runDrape({QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("30"),
                            QStringLiteral("--fps"), QStringLiteral("30"), QStringLiteral("--size"),
                            QStringLiteral("160x120"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const Probe probe = ffprobe(out);
    QCOMPARE(probe.frames, 30);
    QCOMPARE(probe.width, 160);
    QCOMPARE(probe.height, 120);
    if (suffix == QLatin1String("gif")) {
        // GIF stores delays in centiseconds: 30 fps becomes delays of 3, 3, 4 cs... so only
        // the total length is exact to a frame: 30 frames ≈ 1 s.
        QVERIFY2(std::abs(probe.duration - 1.0) < 0.05, qPrintable(QString::number(probe.duration)));
    } else {
        QCOMPARE(probe.rate, QStringLiteral("30/1"));
    }
    // Only the finished video is left: no temporary file.
    QCOMPARE(entries(dir.path(), QStringLiteral("*")), QStringList{QStringLiteral("clip.") + suffix});
}

void TestRender::oddSizes_data()
{
    QTest::addColumn<QString>("output");
    QTest::addColumn<int>("width");
    QTest::addColumn<int>("height");
    // yuv420p needs even sizes: MP4 and WebM round down; GIF and PNG keep the size.
    QTest::newRow("mp4 rounds down") << QStringLiteral("odd.mp4") << 320 << 240;
    QTest::newRow("webm rounds down") << QStringLiteral("odd.webm") << 320 << 240;
    QTest::newRow("gif keeps") << QStringLiteral("odd.gif") << 321 << 241;
    QTest::newRow("png keeps") << QStringLiteral("odd-png") << 321 << 241;
}

void TestRender::oddSizes()
{
    if (!haveFfmpeg())
        QSKIP("ffmpeg / ffprobe are not installed");
    QFETCH(QString, output);
    QFETCH(int, width);
    QFETCH(int, height);
    QTemporaryDir dir;
    const QString out = dir.filePath(output);
    const Run r = runDrape({QStringLiteral("preset:curtain"), QStringLiteral("--frames"), QStringLiteral("4"),
                            QStringLiteral("--fps"), QStringLiteral("30"), QStringLiteral("--size"),
                            QStringLiteral("321x241"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const bool sequence = !output.contains(QLatin1Char('.'));
    const Probe probe = ffprobe(sequence ? QDir(out).filePath(QStringLiteral("frame_0003.png")) : out);
    QCOMPARE(probe.width, width);
    QCOMPARE(probe.height, height);
    if (width != 321)
        QVERIFY2(r.err.contains(QStringLiteral("rounded down to 320×240")), qPrintable(r.err));
}

void TestRender::objSequence()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("meshes"));
    const Run r = runDrape({QStringLiteral("preset:curtain"), QStringLiteral("--frames"), QStringLiteral("5"),
                            QStringLiteral("--fps"), QStringLiteral("30"), QStringLiteral("--obj"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList files = entries(out, QStringLiteral("*.obj"));
    QCOMPARE(files.size(), 5);
    const QString first = QString::fromUtf8(fileBytes(QDir(out).filePath(files.first())));
    const QString last = QString::fromUtf8(fileBytes(QDir(out).filePath(files.last())));
    // Frame k is at k / fps: the header states it, and the cloth falls in between.
    QVERIFY(first.contains(QStringLiteral("t = 0.000000 s")));
    QVERIFY2(last.contains(QStringLiteral("t = 0.133333 s")), qPrintable(last.left(80)));
    QVERIFY(first.contains(QRegularExpression(QStringLiteral("^v -?[0-9]"), QRegularExpression::MultilineOption)));
    QVERIFY(first.contains(QRegularExpression(QStringLiteral("^f [0-9]+/"), QRegularExpression::MultilineOption)));
    QVERIFY(first != last);
}

void TestRender::missingFfmpeg()
{
    QTemporaryDir dir;
    const QString emptyBin = dir.filePath(QStringLiteral("bin"));
    QVERIFY(QDir().mkpath(emptyBin));
    QProcessEnvironment env = headlessEnvironment();
    env.insert(QStringLiteral("PATH"), emptyBin);

    const QString video = dir.filePath(QStringLiteral("clip.mp4"));
    const Run r = runDrape({QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("5"),
                            QStringLiteral("--size"), QStringLiteral("160x120"), QStringLiteral("-o"), video},
                           env);
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("ffmpeg was not found")), qPrintable(r.err));
    QVERIFY(!QFileInfo::exists(video));

    const QString frames = dir.filePath(QStringLiteral("frames"));
    const Run png = runDrape({QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("5"),
                              QStringLiteral("--size"), QStringLiteral("160x120"), QStringLiteral("-o"), frames},
                             env);
    QVERIFY2(png.exitCode == 0, qPrintable(png.err));
    QCOMPARE(entries(frames, QStringLiteral("*.png")).size(), 5);
}

void TestRender::interruptLeavesNoVideo()
{
    if (!haveFfmpeg())
        QSKIP("ffmpeg is not installed");
    QTemporaryDir dir;
    const QString video = dir.filePath(QStringLiteral("long.mp4"));
    QProcess p;
    p.setProcessEnvironment(headlessEnvironment());
    p.start(QStringLiteral(DRAPE_EXECUTABLE),
            {QStringLiteral("render"), QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("100000"),
             QStringLiteral("--size"), QStringLiteral("160x120"), QStringLiteral("-o"), video});
    QVERIFY(p.waitForStarted());
    // Wait until a few frames went to ffmpeg (its temporary file exists), then interrupt.
    QByteArray err;
    QTRY_VERIFY_WITH_TIMEOUT((err += p.readAllStandardError(), err.contains("frame 10/")), 120000);
    QVERIFY(!entries(dir.path(), QStringLiteral(".*.part")).isEmpty());
    p.terminate(); // SIGTERM, handled like Ctrl+C
    QVERIFY(p.waitForFinished(60000));
    err += p.readAllStandardError();
    QCOMPARE(p.exitCode(), 130);
    QVERIFY2(err.contains("no video was written"), err.constData());
    QCOMPARE(entries(dir.path(), QStringLiteral("*")), QStringList());
}

void TestRender::videoPathIsAFolder()
{
    if (!haveFfmpeg())
        QSKIP("ffmpeg / ffprobe are not installed");
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("clip.mp4"));
    QVERIFY(QDir().mkpath(out));
    const Run r = runDrape({QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("30"),
                            QStringLiteral("--fps"), QStringLiteral("30"), QStringLiteral("--size"),
                            QStringLiteral("64x64"), QStringLiteral("-o"), out});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains(QStringLiteral("a folder of that name is in the way")), qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("clip.mp4")), qPrintable(r.err));
    // Refused before rendering, and no file (not even a hidden temporary one) is left beside it.
    QVERIFY2(!r.err.contains(QStringLiteral("frame 1/")), qPrintable(r.err));
    QCOMPARE(entries(dir.path(), QStringLiteral("*")), QStringList());
    QCOMPARE(entries(out, QStringLiteral("*")), QStringList());
}

// --start N: the first frame written is frame N of the scene (t = N / the scene's rate).
void TestRender::startBeginsAtThatFrame()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("meshes"));
    const Run r = runDrape({QStringLiteral("preset:curtain"), QStringLiteral("--frames"), QStringLiteral("3"),
                            QStringLiteral("--start"), QStringLiteral("60"), QStringLiteral("--fps"), QStringLiteral("30"),
                            QStringLiteral("--obj"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    const QStringList files = entries(out, QStringLiteral("*.obj"));
    QCOMPARE(files.size(), 3);
    const QString first = QString::fromUtf8(fileBytes(QDir(out).filePath(files.first())));
    const QString last = QString::fromUtf8(fileBytes(QDir(out).filePath(files.last())));
    QVERIFY2(first.contains(QStringLiteral("t = 1.000000 s")), qPrintable(first.left(80)));
    QVERIFY2(last.contains(QStringLiteral("t = 1.066667 s")), qPrintable(last.left(80)));
}

// 25 fps does not divide the curtain's 60 Hz: the plan steps 3 times per output frame at
// 75 Hz, so output frame k is at k / 25 s of simulated time (the OBJ header states the
// simulation's own clock, which advances by one solver frame per step).
void TestRender::rateThatDoesNotDivideTheScenes()
{
    QTemporaryDir dir;
    const QString out = dir.filePath(QStringLiteral("meshes"));
    const Run r = runDrape({QStringLiteral("preset:curtain"), QStringLiteral("--frames"), QStringLiteral("4"),
                            QStringLiteral("--fps"), QStringLiteral("25"), QStringLiteral("--obj"), QStringLiteral("-o"), out});
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.err.contains(QStringLiteral("75")), qPrintable(r.err)); // the note on the rate
    const QStringList files = entries(out, QStringLiteral("*.obj"));
    QCOMPARE(files.size(), 4);
    for (int k = 0; k < 4; ++k) {
        const QString text = QString::fromUtf8(fileBytes(QDir(out).filePath(files.at(k))));
        const QString expected = QStringLiteral("t = %1 s").arg(double(k) / 25.0, 0, 'f', 6);
        QVERIFY2(text.contains(expected), qPrintable(expected + QStringLiteral(" vs ") + text.left(80)));
    }
}

void TestRender::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown preset") << QStringList{QStringLiteral("preset:nope"), QStringLiteral("-o"), QStringLiteral("x")}
                                    << 1 << QStringLiteral("nope");
    QTest::newRow("missing file") << QStringList{QStringLiteral("/nonexistent/scene.json"), QStringLiteral("-o"), QStringLiteral("x")}
                                  << 1 << QStringLiteral("/nonexistent/scene.json");
    QTest::newRow("bad size") << QStringList{QStringLiteral("preset:flag"), QStringLiteral("--size"), QStringLiteral("big"),
                                             QStringLiteral("-o"), QStringLiteral("x")}
                              << 2 << QStringLiteral("--size: \"big\"");
    QTest::newRow("zero size") << QStringList{QStringLiteral("preset:flag"), QStringLiteral("--size"), QStringLiteral("0x0"),
                                              QStringLiteral("-o"), QStringLiteral("x")}
                               << 2 << QStringLiteral("--size: \"0x0\": width and height must be positive");
    QTest::newRow("huge size names the range")
        << QStringList{QStringLiteral("preset:flag"), QStringLiteral("--size"), QStringLiteral("100000x100000"),
                       QStringLiteral("-o"), QStringLiteral("x")}
        << 2 << QStringLiteral("100000×100000 px is out of range, allowed 16..8192");
    QTest::newRow("bad frames") << QStringList{QStringLiteral("preset:flag"), QStringLiteral("--frames"), QStringLiteral("-3"),
                                               QStringLiteral("-o"), QStringLiteral("x")}
                                << 2 << QStringLiteral("--frames");
    QTest::newRow("no output") << QStringList{QStringLiteral("preset:flag")} << 2 << QStringLiteral("no output");
    QTest::newRow("bad start") << QStringList{QStringLiteral("preset:flag"), QStringLiteral("--start"), QStringLiteral("-1"),
                                              QStringLiteral("-o"), QStringLiteral("x")}
                               << 2 << QStringLiteral("--start: \"-1\"");
    QTest::newRow("fps out of range") << QStringList{QStringLiteral("preset:flag"), QStringLiteral("--fps"), QStringLiteral("0"),
                                                     QStringLiteral("-o"), QStringLiteral("x")}
                                      << 2 << QStringLiteral("record.fps: 0 is out of range");
}

void TestRender::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(int, exitCode);
    QFETCH(QString, message);
    QTemporaryDir dir;
    // Relative outputs land in the temporary folder, never in the source tree.
    QProcess p;
    p.setProcessEnvironment(headlessEnvironment());
    p.setWorkingDirectory(dir.path());
    p.start(QStringLiteral(DRAPE_EXECUTABLE), QStringList{QStringLiteral("render")} + args);
    QVERIFY(p.waitForFinished(60000));
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    QCOMPARE(p.exitCode(), exitCode);
    QVERIFY2(err.contains(message), qPrintable(err));
    QCOMPARE(entries(dir.path(), QStringLiteral("*")), QStringList());
}

// A scene with the image fabric look: the picture comes from --fabric-image (the scene never
// names a file); without it the cloth is drawn plain and the run says so; a missing picture
// is refused with its path before anything is written.
void TestRender::fabricImageFromTheCommandLine()
{
    QTemporaryDir dir;
    const QString plainScene = dir.filePath(QStringLiteral("curtain.json"));
    QProcess simulate;
    simulate.setProcessEnvironment(headlessEnvironment());
    simulate.start(QStringLiteral(DRAPE_EXECUTABLE), { QStringLiteral("simulate"), QStringLiteral("preset:curtain"),
        QStringLiteral("--frames"), QStringLiteral("1"), QStringLiteral("--out"), plainScene });
    QVERIFY(simulate.waitForFinished(120000) && simulate.exitCode() == 0);
    QJsonObject root = QJsonDocument::fromJson(fileBytes(plainScene)).object();
    QJsonObject view = root.value(QStringLiteral("view")).toObject();
    view.insert(QStringLiteral("fabric"), QStringLiteral("image"));
    root.insert(QStringLiteral("view"), view);
    const QString scene = dir.filePath(QStringLiteral("image-look.json"));
    {
        QFile f(scene);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(root).toJson());
    }
    // A 2 × 2 pure green picture as binary PPM (a format Qt reads without plugins).
    const QString picture = dir.filePath(QStringLiteral("green.ppm"));
    {
        QFile f(picture);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray ppm("P6\n2 2\n255\n");
        for (int i = 0; i < 4; ++i)
            ppm.append("\x00\xff\x00", 3);
        f.write(ppm);
    }
    const QStringList common = { scene, QStringLiteral("--frames"), QStringLiteral("1"), QStringLiteral("--size"),
        QStringLiteral("160x120") };
    const QString plainOut = dir.filePath(QStringLiteral("plain")), greenOut = dir.filePath(QStringLiteral("green"));
    const Run plain = runDrape(common + QStringList { QStringLiteral("-o"), plainOut });
    QVERIFY2(plain.exitCode == 0, qPrintable(plain.err));
    QVERIFY2(plain.err.contains(QLatin1String("--fabric-image")), qPrintable(plain.err));
    const Run green = runDrape(common + QStringList { QStringLiteral("--fabric-image"), picture, QStringLiteral("-o"), greenOut });
    QVERIFY2(green.exitCode == 0, qPrintable(green.err));
    QVERIFY(!green.err.contains(QLatin1String("--fabric-image")));
    const QByteArray a = fileBytes(QDir(plainOut).filePath(QStringLiteral("frame_0000.png")));
    const QByteArray b = fileBytes(QDir(greenOut).filePath(QStringLiteral("frame_0000.png")));
    QVERIFY(!a.isEmpty() && !b.isEmpty());
    QVERIFY2(a != b, "the picture changed nothing");

    const QString missing = dir.filePath(QStringLiteral("gone.png"));
    const QString missingOut = dir.filePath(QStringLiteral("missing"));
    const Run refused = runDrape(common + QStringList { QStringLiteral("--fabric-image"), missing, QStringLiteral("-o"), missingOut });
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(missing) && refused.err.contains(QLatin1String("no such file")), qPrintable(refused.err));
    QVERIFY(!QFileInfo::exists(missingOut));
}

QTEST_GUILESS_MAIN(TestRender)
#include "tst_render.moc"
