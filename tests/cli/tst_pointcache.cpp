// `drape simulate --pc2`: the point cache end to end, read back byte by byte against the
// 32-byte PC2 header and the positions of the final state written beside it.
#include "scene/presets.h"
#include "scene/scenefile.h"

#include "drapeprocess.h"

#include <QtTest>

#include <cstring>

using namespace drape;

namespace {

struct Pc2 {
    QByteArray signature;
    qint32 version = 0, points = 0, samples = 0;
    float start = -1.f, rate = 0.f;
    QByteArray data; ///< everything after the header
};

template <typename T> T readLE(const QByteArray &bytes, int offset)
{
    static_assert(sizeof(T) == 4);
    quint32 v = 0;
    for (int i = 0; i < 4; ++i)
        v |= quint32(quint8(bytes[offset + i])) << (8 * i);
    T out;
    std::memcpy(&out, &v, 4);
    return out;
}

Pc2 readPc2(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot open %s", qPrintable(path));
    const QByteArray all = f.readAll();
    Pc2 p;
    if (all.size() < 32)
        return p;
    p.signature = all.left(12);
    p.version = readLE<qint32>(all, 12);
    p.points = readLE<qint32>(all, 16);
    p.start = readLE<float>(all, 20);
    p.rate = readLE<float>(all, 24);
    p.samples = readLE<qint32>(all, 28);
    p.data = all.mid(32);
    return p;
}

} // namespace

class TestPointCache : public QObject {
    Q_OBJECT
private slots:
    void curtainCacheMatchesTheFinalState();
    void tearingClothIsRefusedWithAdvice();

private:
    using Run = DrapeRun;
    Run run(const QStringList &args) { return runDrape(QStringList { "simulate" } + args, m_dir.path()); }
    QTemporaryDir m_dir;
};

void TestPointCache::curtainCacheMatchesTheFinalState()
{
    QVERIFY(m_dir.isValid());
    const QString pc2Path = m_dir.filePath("curtain.pc2");
    const QString jsonPath = m_dir.filePath("curtain.json");
    const Run r = run({ "preset:curtain", "--frames", "25", "--pc2", pc2Path, "--out", jsonPath });
    QVERIFY2(r.exitCode == 0, qPrintable(r.err));
    QVERIFY2(r.out.contains("wrote 26 samples"), qPrintable(r.out));

    const Scene start = *loadPreset("curtain").scene;
    const Cloth initial = buildCloth(start.cloths[0]);
    const Pc2 p = readPc2(pc2Path);
    QCOMPARE(p.signature, QByteArray("POINTCACHE2\0", 12));
    QCOMPARE(p.version, 1);
    QCOMPARE(p.points, qint32(initial.particles.size()));
    QCOMPARE(p.start, 0.f);
    QCOMPARE(p.rate, 1.f);
    QCOMPARE(p.samples, 26); // the start and 25 frames
    QCOMPARE(p.data.size(), qsizetype(p.samples) * p.points * 12);

    // Sample 0 is the start, the last sample the final state saved with --out.
    auto point = [&](int sample, int i) {
        const int o = (sample * p.points + i) * 12;
        return Vec3 { readLE<float>(p.data, o), readLE<float>(p.data, o + 4), readLE<float>(p.data, o + 8) };
    };
    const SceneLoadResult final = loadSceneFile(jsonPath.toStdString());
    QVERIFY2(final.ok(), final.error.c_str());
    const std::vector<Vec3> &last = final.scene->state->cloths[0].position;
    for (int i = 0; i < p.points; ++i) {
        QCOMPARE(point(0, i), initial.particles.position[i]);
        QCOMPARE(point(p.samples - 1, i), last[i]);
    }
    QVERIFY(point(1, p.points - 1) != point(0, p.points - 1)); // the cloth moves
}

void TestPointCache::tearingClothIsRefusedWithAdvice()
{
    const QString pc2Path = m_dir.filePath("banner.pc2");
    const Run r = run({ "preset:banner-tear", "--frames", "400", "--pc2", pc2Path });
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.startsWith("drape simulate: " + pc2Path + ": the vertex count changes at frame "),
        qPrintable(r.err));
    QVERIFY2(r.err.contains("--obj-sequence"), qPrintable(r.err));
    // Nothing half-written is left behind.
    QVERIFY(!QFile::exists(pc2Path));
    QVERIFY(!QFile::exists(pc2Path + ".part"));
}

QTEST_GUILESS_MAIN(TestPointCache)
#include "tst_pointcache.moc"
