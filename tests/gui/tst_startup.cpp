// Starting the editor from the command line: a scene file that cannot be read opens the editor
// on an empty scene with the error shown (on stderr and over the viewport) instead of quitting.
#include <QElapsedTimer>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestStartup : public QObject {
    Q_OBJECT
private slots:
    void badSceneOpensAnEmptyEditor()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("broken.json"));
        QFile file(bad);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{ \"format\": \"drape-scene\", \"version\": 1, \"cloths\": [ }\n");
        file.close();

        QProcess editor;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));
        editor.setProcessEnvironment(env);
        editor.start(QStringLiteral(DRAPE_EXECUTABLE), { bad });
        QVERIFY(editor.waitForStarted());
        // The error reaches stderr while the editor stays up.
        QString err;
        QElapsedTimer clock;
        clock.start();
        while (!err.contains(QLatin1String("broken.json")) && clock.elapsed() < 20000
            && editor.state() == QProcess::Running) {
            editor.waitForReadyRead(200);
            err += QString::fromUtf8(editor.readAllStandardError());
        }
        QVERIFY2(err.contains(QLatin1String("broken.json")), qPrintable(err));
        QVERIFY(err.contains(QLatin1String("empty scene")));
        // Still running well after the scene failed to load: the editor did not quit.
        QVERIFY2(!editor.waitForFinished(3000),
            qPrintable(err + QString::fromUtf8(editor.readAllStandardError())));
        QCOMPARE(editor.state(), QProcess::Running);
        // The file is untouched.
        QFile again(bad);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(
            again.readAll(), QByteArray("{ \"format\": \"drape-scene\", \"version\": 1, \"cloths\": [ }\n"));
        editor.terminate();
        if (!editor.waitForFinished(5000))
            editor.kill();
    }
};

QTEST_GUILESS_MAIN(TestStartup)
#include "tst_startup.moc"
