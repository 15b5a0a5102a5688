#include "actions/openscene.h"

#include "base/outputcheck.h"

#include <QCoreApplication>
#include <QMessageBox>

namespace drape {

std::unique_ptr<Document> openSceneAsking(
    QWidget *parent, const QString &path, QString *error, QStringList *warnings)
{
    std::optional<SceneTotals> over;
    std::unique_ptr<Document> doc = Document::load(path, error, warnings, SceneBudget {}, &over);
    if (doc || !over)
        return doc;
    const auto tr = [](const char *text) { return QCoreApplication::translate("OpenScene", text); };
    const std::uint64_t available = availableMemoryBytes();
    const QString need = QString::fromStdString(formatBytes(double(over->bytes)));
    const QString have = QString::fromStdString(formatBytes(double(available)));
    if (available < 2 * over->bytes) {
        *error += tr("\n\nIt would need about %1 of memory; this machine has %2 available.").arg(need, have);
        return nullptr;
    }
    const auto answer = QMessageBox::question(parent, tr("Open Scene"),
        tr("This scene is larger than Drape's usual budget:\n\n%1\n\nIt needs about %2 of memory and this "
           "machine "
           "has %3 available. It may run slowly. Open it anyway?")
            .arg(*error, need, have),
        QMessageBox::Open | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Open)
        return nullptr;
    error->clear();
    if (warnings)
        warnings->clear();
    return Document::load(path, error, warnings, SceneBudget::unlimited());
}

} // namespace drape
