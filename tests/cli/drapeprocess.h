// Test helper: runs the drape executable in a mode (`drape simulate ...`) and collects its
// exit code and output. Shared by the end-to-end tests of the command-line modes.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtGlobal>

struct DrapeRun {
    int exitCode = -1; ///< -1 when the process crashed
    QString out;
    QString err;
};

inline DrapeRun runDrape(const QString &workingDirectory, const QStringList &args)
{
    QProcess p;
    p.setWorkingDirectory(workingDirectory);
    p.start(QStringLiteral(DRAPE_EXECUTABLE), args);
    if (!p.waitForFinished(300000))
        qFatal("drape %s did not finish", qPrintable(args.value(0)));
    DrapeRun r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}
