// "Bake to folder": the frames of a document written beside its scene file and read back
// into a timeline, which then shows them without simulating; a cache of another document, a
// damaged one and a failed bake are handled without losing anything.
#include "scene/presets.h"
#include "timeline/diskcache.h"
#include "timeline/takesource.h"
#include "timeline/timeline.h"

#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace drape;

namespace {

// The tearable net with the take it ships with: a drag that tears it and a cut at 130, so
// the topology changes within the baked range.
constexpr std::uint64_t kLast = 160;

struct Document {
    std::shared_ptr<const Scene> scene;
    Take take;
};

Document tearableNet()
{
    const SceneLoadResult r = loadPreset("tearable-net");
    if (!r.ok() || r.take.empty())
        qFatal("tearable-net: %s", r.error.c_str());
    return { std::make_shared<const Scene>(*r.scene), r.take };
}

std::shared_ptr<const FrameSource> sourceOf(const Document &doc)
{
    return std::make_shared<TakeSource>(doc.scene, doc.take);
}

bool bake(Timeline &timeline, const std::string &folder, std::uint64_t hash, std::string *error)
{
    DiskCacheWriter writer;
    if (!writer.open(folder, hash, error))
        return false;
    for (std::uint64_t f = 0; f <= kLast; ++f)
        if (!writer.append(*timeline.frame(f), error))
            return false;
    return writer.finish(error);
}

} // namespace

class TestDiskCache : public QObject {
    Q_OBJECT
private slots:
    void folderSitsBesideTheScene();
    void bakedFramesScrubWithoutSimulating();
    void staleOrDamagedCacheIsIgnored();
    void failedBakeKeepsTheEarlierCache();

private:
    QTemporaryDir m_dir;
};

void TestDiskCache::folderSitsBesideTheScene()
{
    QCOMPARE(diskCacheFolder("/a/b/flag.json"), std::string("/a/b/flag.drape-cache"));
    QCOMPARE(diskCacheFolder("net"), std::string("net.drape-cache"));
    // The hash follows what is simulated, not where the camera looks.
    const Document doc = tearableNet();
    Scene moved = *doc.scene;
    moved.camera.yaw += 10.f;
    QCOMPARE(documentHash(moved, doc.take), documentHash(*doc.scene, doc.take));
    QVERIFY(documentHash(*doc.scene, Take {}) != documentHash(*doc.scene, doc.take));
    Scene heavier = *doc.scene;
    heavier.world.gravity.y *= 2.f;
    QVERIFY(documentHash(heavier, doc.take) != documentHash(*doc.scene, doc.take));
}

void TestDiskCache::bakedFramesScrubWithoutSimulating()
{
    const Document doc = tearableNet();
    const std::uint64_t hash = documentHash(*doc.scene, doc.take);
    const std::string folder = m_dir.filePath("net.drape-cache").toStdString();
    Timeline baked(sourceOf(doc));
    std::string error;
    QVERIFY2(bake(baked, folder, hash, &error), error.c_str());

    const DiskCacheLoad load = readDiskCache(folder, hash);
    QCOMPARE(int(load.status), int(DiskCacheStatus::Loaded));
    QCOMPARE(load.frames.size(), std::size_t(kLast + 1));
    for (std::uint64_t f = 0; f <= kLast; ++f) {
        const CachedFrame &a = *baked.frame(f);
        const CachedFrame &b = *load.frames[f];
        QCOMPARE(b.frame, f);
        QCOMPARE(b.stateHash, a.stateHash);
        QCOMPARE(b.time, a.time);
        QCOMPARE(b.cloths.size(), a.cloths.size());
        QVERIFY(b.cloths[0].position == a.cloths[0].position);
        QVERIFY(b.cloths[0].topology->triangles == a.cloths[0].topology->triangles);
        QVERIFY(b.cloths[0].topology->rest == a.cloths[0].topology->rest);
        QVERIFY(b.colliderCenters == a.colliderCenters);
        // A topology is stored once and shared for as long as the baked frames shared it.
        if (f > 0)
            QCOMPARE(b.cloths[0].topology == load.frames[f - 1]->cloths[0].topology,
                a.cloths[0].topology == baked.frame(f - 1)->cloths[0].topology);
    }
    QVERIFY(load.frames[kLast]->cloths[0].topology != load.frames[0]->cloths[0].topology); // it tore

    // A fresh timeline of the same document, seeded from the folder, shows every baked
    // frame without simulating one.
    Timeline reopened(sourceOf(doc));
    QCOMPARE(reopened.seed(load.frames), std::size_t(kLast + 1));
    for (std::uint64_t f = 0; f <= kLast; ++f)
        QCOMPARE(reopened.cachedFrame(f)->stateHash, baked.frame(f)->stateHash);
    QCOMPARE(reopened.simulatedFrames(), std::uint64_t(0));
    // Past the baked range it simulates on, to the same frames as the first run.
    QCOMPARE(reopened.frame(kLast + 5)->stateHash, baked.frame(kLast + 5)->stateHash);
    // Frames of another start are refused.
    Timeline other(std::make_shared<TakeSource>(std::make_shared<const Scene>(*loadPreset("flag").scene), Take {}));
    QCOMPARE(other.seed(load.frames), std::size_t(0));
}

void TestDiskCache::staleOrDamagedCacheIsIgnored()
{
    const Document doc = tearableNet();
    const std::uint64_t hash = documentHash(*doc.scene, doc.take);
    const std::string folder = m_dir.filePath("stale.drape-cache").toStdString();
    QCOMPARE(int(readDiskCache(folder, hash).status), int(DiskCacheStatus::Missing));
    Timeline timeline(sourceOf(doc));
    std::string error;
    QVERIFY2(bake(timeline, folder, hash, &error), error.c_str());

    // The take changed after the bake (its cut deleted): the cache is stale.
    Take edited = doc.take;
    edited.events.pop_back();
    const DiskCacheLoad stale = readDiskCache(folder, documentHash(*doc.scene, edited));
    QCOMPARE(int(stale.status), int(DiskCacheStatus::Stale));
    QVERIFY(stale.frames.empty());
    QVERIFY2(stale.message.find(folder) != std::string::npos, stale.message.c_str());

    // Cut short, or with a triangle pointing past the particles: damaged, nothing loaded.
    const std::string file = folder + "/frames.bin";
    const auto size = std::filesystem::file_size(file);
    std::filesystem::copy_file(file, file + ".good");
    std::filesystem::resize_file(file, size - 100);
    DiskCacheLoad damaged = readDiskCache(folder, hash);
    QCOMPARE(int(damaged.status), int(DiskCacheStatus::Damaged));
    QVERIFY(damaged.frames.empty());
    std::filesystem::copy_file(file + ".good", file, std::filesystem::copy_options::overwrite_existing);
    {
        // The first triangle's first index: after the header (40 bytes), the frame's fixed
        // fields (29), the particle count, the flag, the revision and the triangle count.
        std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(40 + 29 + 4 + 1 + 8 + 4);
        const char big[4] = { '\xff', '\xff', '\xff', '\x7f' };
        f.write(big, 4);
    }
    damaged = readDiskCache(folder, hash);
    QCOMPARE(int(damaged.status), int(DiskCacheStatus::Damaged));
    QVERIFY2(damaged.message.find("frame 0") != std::string::npos, damaged.message.c_str());
}

void TestDiskCache::failedBakeKeepsTheEarlierCache()
{
    const Document doc = tearableNet();
    const std::uint64_t hash = documentHash(*doc.scene, doc.take);
    const std::string folder = m_dir.filePath("kept.drape-cache").toStdString();
    Timeline timeline(sourceOf(doc));
    std::string error;
    QVERIFY2(bake(timeline, folder, hash, &error), error.c_str());

    // A bake that fails midway (frames out of order stand in for a full disk) removes its
    // temporary file and leaves the earlier cache whole.
    {
        DiskCacheWriter writer;
        QVERIFY(writer.open(folder, hash, &error));
        QVERIFY(writer.append(*timeline.frame(0), &error));
        QVERIFY(!writer.append(*timeline.frame(5), &error));
        QVERIFY2(error.find("frame 5") != std::string::npos, error.c_str());
    }
    QVERIFY(!std::filesystem::exists(folder + "/frames.bin.part"));
    QCOMPARE(readDiskCache(folder, hash).frames.size(), std::size_t(kLast + 1));

    // A folder that cannot be made: a clear error naming it.
    const std::string blocked = m_dir.filePath("file").toStdString();
    std::ofstream(blocked) << "x";
    DiskCacheWriter writer;
    QVERIFY(!writer.open(blocked + "/sub.drape-cache", hash, &error));
    QVERIFY2(error.find("sub.drape-cache") != std::string::npos, error.c_str());
}

QTEST_GUILESS_MAIN(TestDiskCache)
#include "tst_diskcache.moc"
