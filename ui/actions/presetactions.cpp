#include "actions/presetactions.h"

#include "docks/parametersdock.h"
#include "document/document.h"
#include "mainwindow.h"
#include "scene/userpresets.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRadioButton>
#include <QStatusBar>

namespace drape {

namespace {

bool exists(const QString &id, UserPresetKind kind)
{
    for (const UserPreset &u : userPresetList())
        if (u.kind == kind && QString::fromStdString(u.id) == id)
            return true;
    return false;
}

} // namespace

PresetActions::PresetActions(MainWindow *window) : QObject(window), m_window(window)
{
    m_saveAsPreset = new QAction(tr("Save as &Preset…"), this);
    m_saveAsPreset->setObjectName(QStringLiteral("SaveAsPreset"));
    m_saveAsPreset->setStatusTip(tr("Keep this scene, or the current cloth's fabric, as a preset of your own"));
    connect(m_saveAsPreset, &QAction::triggered, this, &PresetActions::saveAsPreset);
}

QString PresetActions::saveScene(const QString &id, bool replace)
{
    Document *doc = m_window->document();
    if (!doc)
        return tr("No scene is open.");
    std::string error;
    Scene scene = doc->scene();
    scene.camera = doc->camera(); // the view the user left it at
    if (!saveUserPreset(id.toStdString(), scene, replace, &error))
        return QString::fromStdString(error);
    emit presetsChanged();
    return {};
}

QString PresetActions::saveFabric(const QString &id, int cloth, bool replace)
{
    Document *doc = m_window->document();
    if (!doc || cloth < 0 || std::size_t(cloth) >= doc->scene().cloths.size())
        return tr("There is no cloth whose fabric could be kept.");
    std::string error;
    if (!saveFabricPreset(id.toStdString(), doc->scene().cloths[std::size_t(cloth)].material, replace, &error))
        return QString::fromStdString(error);
    emit presetsChanged();
    return {};
}

QString PresetActions::renameScene(const QString &from, const QString &to)
{
    std::string error;
    if (!renameUserPreset(UserPresetKind::Scene, from.toStdString(), to.toStdString(), &error))
        return QString::fromStdString(error);
    emit presetsChanged();
    return {};
}

QString PresetActions::deleteScene(const QString &id)
{
    std::string error;
    if (!deleteUserPreset(UserPresetKind::Scene, id.toStdString(), &error))
        return QString::fromStdString(error);
    emit presetsChanged();
    return {};
}

void PresetActions::saveAsPreset()
{
    Document *doc = m_window->document();
    if (!doc)
        return;
    const int cloth = m_window->parametersDock()->currentCloth();
    QDialog dialog(m_window);
    dialog.setWindowTitle(tr("Save as Preset"));
    auto *form = new QFormLayout(&dialog);
    auto *name = new QLineEdit(QString::fromStdString(doc->scene().name), &dialog);
    auto *whole = new QRadioButton(tr("The whole scene"), &dialog);
    auto *fabric = new QRadioButton(&dialog);
    const bool hasCloth = std::size_t(cloth) < doc->scene().cloths.size();
    fabric->setText(hasCloth ? tr("Only the fabric of “%1”").arg(QString::fromStdString(
                                   doc->scene().cloths[std::size_t(cloth)].name))
                             : tr("Only a fabric (the scene has no cloth)"));
    fabric->setEnabled(hasCloth);
    whole->setChecked(true);
    auto *problem = new QLabel(&dialog);
    problem->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Cancel, &dialog);
    form->addRow(tr("Name"), name);
    form->addRow(tr("Keep"), whole);
    form->addRow(QString(), fabric);
    form->addRow(problem);
    form->addRow(buttons);
    auto check = [&] {
        const UserPresetKind kind = whole->isChecked() ? UserPresetKind::Scene : UserPresetKind::Fabric;
        const std::string why = checkUserPresetId(name->text().toStdString(), kind);
        problem->setText(QString::fromStdString(why));
        buttons->button(QDialogButtonBox::Save)->setEnabled(why.empty());
    };
    connect(name, &QLineEdit::textChanged, &dialog, check);
    connect(whole, &QRadioButton::toggled, &dialog, check);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    check();
    if (dialog.exec() != QDialog::Accepted)
        return;
    const QString id = name->text();
    const UserPresetKind kind = whole->isChecked() ? UserPresetKind::Scene : UserPresetKind::Fabric;
    bool replace = false;
    if (exists(id, kind)) {
        if (QMessageBox::question(m_window, tr("Save as Preset"), tr("Replace your preset “%1”?").arg(id))
            != QMessageBox::Yes)
            return;
        replace = true;
    }
    const QString error = kind == UserPresetKind::Scene ? saveScene(id, replace) : saveFabric(id, cloth, replace);
    if (!error.isEmpty())
        QMessageBox::warning(m_window, tr("Save as Preset"), error);
    else
        m_window->statusBar()->showMessage(tr("Saved your preset “%1”").arg(id), 4000);
}

void PresetActions::askRename(const QString &id)
{
    bool ok = false;
    const QString to = QInputDialog::getText(m_window, tr("Rename Preset"), tr("New name"), QLineEdit::Normal, id, &ok);
    if (!ok || to == id)
        return;
    if (const QString error = renameScene(id, to); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Rename Preset"), error);
}

void PresetActions::askDelete(const QString &id)
{
    if (QMessageBox::question(m_window, tr("Delete Preset"), tr("Delete your preset “%1”?").arg(id))
        != QMessageBox::Yes)
        return;
    if (const QString error = deleteScene(id); !error.isEmpty())
        QMessageBox::warning(m_window, tr("Delete Preset"), error);
}

} // namespace drape
