// Long variant of the random-edit property test of tests/tst_take.cpp: many seeds and long
// sessions on every preset (opt-in, -DDRAPE_SOAK_TESTS=ON).
#include "../randomedits.h"

#include <QtTest>

using namespace drape;

class TestTakeSoak : public QObject {
    Q_OBJECT

private slots:
    void longRandomSessions_data();
    void longRandomSessions();
};

void TestTakeSoak::longRandomSessions_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<int>("seed");
    for (const PresetDesc &p : presetList())
        for (int seed = 1; seed <= 6; ++seed)
            QTest::addRow("%s-%d", p.id.c_str(), seed) << QString::fromStdString(p.id) << seed;
}

void TestTakeSoak::longRandomSessions()
{
    QFETCH(QString, id);
    QFETCH(int, seed);
    testing::checkRandomSession(
        id.toStdString().c_str(), std::uint32_t(seed) * 7919u + std::uint32_t(qHash(id)), 40);
    // The checks live in the shared helper, whose failures return from it, not from here.
    QVERIFY(!QTest::currentTestFailed());
}

QTEST_GUILESS_MAIN(TestTakeSoak)
#include "tst_takesoak.moc"
