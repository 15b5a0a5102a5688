// A generator of structured malformed scenes, each run through `drape simulate`: every file
// must end with exit status 1 and a message naming the file and the place (a JSON path or a
// line and column), within a time and memory limit, and never with a signal.
//
// The files are mutations of tests/data/v1/all-kinds.json (a grid, a rope, an explicit cloth
// and every collider kind): at every path a value of the wrong type, an out-of-range number,
// a removed key; plus duplicate keys, deep nesting, NUL bytes, truncation, huge counts and
// scenes over the budget. Mutations that happen to be valid (a removed optional key) are
// filtered out with the library's own reader, and counted.
#include "scene/scenefile.h"

#include "../sanitizers.h"

#include <QtTest>

#include <nlohmann/json.hpp>

#include <sys/resource.h>

#include <functional>

using drape::parseScene;

using Json = nlohmann::ordered_json;

class TestMalformedScenes : public QObject {
    Q_OBJECT
private slots:
    void everyMalformedFileIsRefusedCleanly();
};

namespace {

struct Case {
    QString name; ///< file name
    std::string text;
    std::string place; ///< a JSON path the message should name, or "" for line:column
};

// Every path of `j` (arrays: their first two elements only, which keeps the count sane).
void collectPaths(const Json &j, const std::string &path, std::vector<std::string> &out)
{
    out.push_back(path);
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it)
            collectPaths(it.value(), path + "/" + it.key(), out);
    } else if (j.is_array()) {
        for (std::size_t i = 0; i < std::min<std::size_t>(j.size(), 2); ++i)
            collectPaths(j[i], path + "/" + std::to_string(i), out);
    }
}

std::vector<Case> generate(const Json &base)
{
    std::vector<Case> cases;
    std::vector<std::string> paths;
    collectPaths(base, "", paths);
    int n = 0;
    const auto add = [&](const std::string &kind, const std::string &text, const std::string &place) {
        cases.push_back(
            { QStringLiteral("case%1-%2.json").arg(n++, 4, 10, QChar('0')).arg(QString::fromStdString(kind)),
                text, place });
    };
    for (const std::string &path : paths) {
        if (path.empty())
            continue;
        const Json::json_pointer ptr(path);
        const Json &v = base.at(ptr);
        std::vector<std::pair<std::string, Json>> replacements;
        if (!v.is_string())
            replacements.push_back({ "string", "text" });
        if (!v.is_number())
            replacements.push_back({ "number", 7 });
        if (!v.is_object())
            replacements.push_back({ "object", Json::object() });
        if (!v.is_array())
            replacements.push_back({ "array", Json::array({ 1, 2 }) });
        replacements.push_back({ "null", nullptr });
        if (v.is_number()) {
            replacements.push_back({ "huge", 1e30 });
            replacements.push_back({ "negative", -1e30 });
            if (v.is_number_integer())
                replacements.push_back({ "fraction", 0.5 });
        }
        for (const auto &[kind, value] : replacements) {
            Json m = base;
            m[ptr] = value;
            add(kind, m.dump(2), path);
        }
        const std::string parent = ptr.parent_pointer().to_string();
        Json m = base;
        if (m.at(ptr.parent_pointer()).is_object()) {
            m.at(ptr.parent_pointer()).erase(ptr.back());
            add("missing", m.dump(2), parent.empty() ? path : parent);
        }
    }
    const std::string text = base.dump(2);
    const std::string tail = text.substr(1); // everything after the opening brace
    add("duplicate-version", "{\"version\": 1," + tail, "/version");
    add("duplicate-format", "{\"format\": \"drape-scene\"," + tail, "/format");
    add("deep", "{\"format\": \"drape-scene\", \"version\": 1, \"name\": " + std::string(100000, '['), "");
    add("nul", text + std::string(1, '\0') + "{}", "");
    add("trailing", text + "{}", "");
    for (std::size_t cut : { std::size_t(1), text.size() / 3, text.size() / 2, text.size() - 2 })
        add("truncated", text.substr(0, cut), "");
    add("not-json", "GIF89a\x01\x02", "");
    add("binary", std::string("\xff\xfe\x00\x01", 4), "");
    Json huge = base;
    huge["cloths"][0]["grid"]["across"] = 1024;
    huge["cloths"][0]["grid"]["down"] = 1024;
    Json bomb = base;
    bomb["cloths"] = Json::array();
    for (int i = 0; i < 100; ++i)
        bomb["cloths"].push_back(huge["cloths"][0]);
    add("budget", bomb.dump(), "/cloths");
    Json count = base;
    count["cloths"][1]["rope"]["count"] = 1e12;
    add("huge-count", count.dump(), "/cloths/1/rope/count");
    return cases;
}

} // namespace

void TestMalformedScenes::everyMalformedFileIsRefusedCleanly()
{
    QFile baseFile(QStringLiteral(DRAPE_TEST_DATA "/v1/all-kinds.json"));
    QVERIFY(baseFile.open(QIODevice::ReadOnly));
    const Json base = Json::parse(baseFile.readAll().toStdString());
    QVERIFY(parseScene(base.dump(2), "base.json").ok());

    QTemporaryDir dir;
    const std::vector<Case> cases = generate(base);
    // Under the sanitizers each run takes ~5× longer: every third malformed file keeps the
    // suite's time in check (the normal build runs them all).
    const int stride = drape::testing::kSanitizedBuild ? 3 : 1;
    int refused = 0, valid = 0, run = 0;
    QElapsedTimer total;
    total.start();
    for (const Case &c : cases) {
        // The library is the oracle for "malformed": a mutation it accepts is a valid scene.
        if (parseScene(c.text, c.name.toStdString()).ok()) {
            ++valid;
            continue;
        }
        ++refused;
        if (refused % stride != 0)
            continue;
        ++run;
        const QString path = dir.filePath(c.name);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(c.text.data(), qint64(c.text.size()));
        f.close();

        QProcess p;
        // 1 GB of address space: a file that would allocate without bound fails here. Not
        // under the sanitizers, whose shadow memory alone reserves terabytes of it.
        if constexpr (!drape::testing::kSanitizedBuild) {
            p.setChildProcessModifier([] {
                const rlimit limit { rlim_t(1) << 30, rlim_t(1) << 30 };
                ::setrlimit(RLIMIT_AS, &limit);
            });
        }
        p.start(QStringLiteral(DRAPE_EXECUTABLE),
            { QStringLiteral("simulate"), path, QStringLiteral("--frames"), QStringLiteral("1") });
        QVERIFY2(p.waitForFinished(20000), qPrintable(c.name + " did not finish within 20 s"));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit, qPrintable(c.name + " ended by a signal: " + err));
        QVERIFY2(
            p.exitCode() == 1, qPrintable(c.name + ": exit " + QString::number(p.exitCode()) + ": " + err));
        QVERIFY2(err.startsWith(QStringLiteral("drape simulate: ")) && err.contains(c.name),
            qPrintable(c.name + ": " + err));
        static const QRegularExpression place(
            QStringLiteral("(\\.json: /|\\.json: \\d+:\\d+: |\\.json, line \\d+, column \\d+)"));
        QVERIFY2(place.match(err).hasMatch(), qPrintable(c.name + " names no place: " + err));
        if (!c.place.empty() && err.contains(QStringLiteral(".json: /")))
            QVERIFY2(err.contains(QString::fromStdString(c.place).section('/', 0, 2)),
                qPrintable(c.name + ": " + err));
        QVERIFY2(!err.contains(QChar(0x1b)), qPrintable(c.name));
    }
    qInfo("%d generated files: %d malformed, each refused with exit status 1; %d valid mutations skipped; "
          "%.1f s",
        int(cases.size()), refused, valid, double(total.elapsed()) / 1000.0);
    QVERIFY(refused >= 300);
}

QTEST_GUILESS_MAIN(TestMalformedScenes)
#include "tst_malformedscenes.moc"
