// Runs the drape executable for the end-to-end tests and collects its exit code and output.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QtTest>

struct DrapeRun {
    int exitCode = -1; ///< -1 when it crashed
    QString out;
    QString err;
};

/// `drape ARGS…` in `workingDirectory`; fails the whole test if it does not end within 5 minutes.
inline DrapeRun runDrape(const QStringList &args, const QString &workingDirectory)
{
    QProcess p;
    p.setWorkingDirectory(workingDirectory);
    p.start(QStringLiteral(DRAPE_EXECUTABLE), args);
    if (!p.waitForFinished(300000))
        qFatal("drape %s did not finish", qPrintable(args.join(' ')));
    DrapeRun r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}
