#include "docks/scenedock.h"

#include "actions/fileactions.h"
#include "actions/presetactions.h"
#include "appsettings.h"
#include "document/document.h"
#include "mainwindow.h"
#include "document/presetcatalog.h"
#include "scene/userpresets.h"

#include <QAction>
#include <QFileInfo>
#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace drape {

namespace {

QWidget *titled(const QString &title, QWidget *body, QWidget *parent)
{
    auto *box = new QWidget(parent);
    auto *layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->setSpacing(2);
    auto *label = new QLabel(QStringLiteral("<b>%1</b>").arg(title), box);
    layout->addWidget(label);
    layout->addWidget(body, 1);
    return box;
}

} // namespace

SceneDock::SceneDock(MainWindow *window) : QDockWidget(tr("Scene"), window), m_window(window)
{
    setObjectName(QStringLiteral("SceneDock"));
    auto *body = new QWidget(this);
    auto *layout = new QVBoxLayout(body);
    layout->setContentsMargins(4, 4, 4, 4);

    m_title = new QLabel(body);
    m_title->setWordWrap(true);
    layout->addWidget(m_title);

    FileActions *files = window->fileActions();
    auto *buttons = new QGridLayout;
    auto *open = new QPushButton(tr("Open…"), body);
    auto *save = new QPushButton(tr("Save"), body);
    auto *saveAs = new QPushButton(tr("Save As…"), body);
    m_revert = new QPushButton(tr("Revert"), body);
    buttons->addWidget(open, 0, 0);
    buttons->addWidget(save, 0, 1);
    buttons->addWidget(saveAs, 1, 0);
    buttons->addWidget(m_revert, 1, 1);
    layout->addLayout(buttons);
    connect(open, &QPushButton::clicked, files, &FileActions::open);
    connect(save, &QPushButton::clicked, files, &FileActions::save);
    connect(saveAs, &QPushButton::clicked, files, &FileActions::saveAs);
    connect(m_revert, &QPushButton::clicked, files, &FileActions::revert);

    auto *splitter = new QSplitter(Qt::Vertical, body);
    splitter->setChildrenCollapsible(false);

    auto *presetBox = new QWidget(splitter);
    auto *presetLayout = new QVBoxLayout(presetBox);
    presetLayout->setContentsMargins(0, 0, 0, 0);
    m_presets = new QListWidget(presetBox);
    m_presets->setToolTip(tr("Double-click to start a new scene from a preset"));
    auto *description = new QLabel(presetBox);
    description->setWordWrap(true);
    description->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    description->setMinimumHeight(description->fontMetrics().lineSpacing() * 4);
    description->setForegroundRole(QPalette::PlaceholderText);
    presetLayout->addWidget(m_presets, 1);
    presetLayout->addWidget(description);
    for (const PresetInfo &p : builtinPresets()) {
        auto *item = new QListWidgetItem(p.name, m_presets);
        item->setData(Qt::UserRole, p.key);
        item->setData(Qt::UserRole + 1, p.description);
        item->setToolTip(p.description);
    }
    connect(m_presets, &QListWidget::currentItemChanged, description, [description](QListWidgetItem *item) {
        description->setText(item ? item->data(Qt::UserRole + 1).toString() : QString());
    });
    connect(m_presets, &QListWidget::itemActivated, this, [files](QListWidgetItem *item) {
        files->newFromPreset(item->data(Qt::UserRole).toString());
    });
    // All eight presets show at once: the list is as tall as its rows, never scrolled.
    m_presets->setObjectName(QStringLiteral("presetList"));
    m_presets->setMinimumHeight(
        m_presets->sizeHintForRow(0) * m_presets->count() + 2 * m_presets->frameWidth() + 2);
    m_presets->setVerticalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    // Right click: the same as a double click, said in words.
    auto *newFromPreset = new QAction(tr("New Scene from This Preset"), m_presets);
    connect(newFromPreset, &QAction::triggered, this, [this, files] {
        if (QListWidgetItem *item = m_presets->currentItem())
            files->newFromPreset(item->data(Qt::UserRole).toString());
    });
    m_presets->addAction(newFromPreset);
    m_presets->setContextMenuPolicy(Qt::ActionsContextMenu);
    splitter->addWidget(titled(tr("Built-in presets"), presetBox, splitter));

    // The user's own scene presets, below the built-in ones (PresetActions saves them).
    PresetActions *presets = window->presetActions();
    m_userPresets = new QListWidget(splitter);
    m_userPresets->setObjectName(QStringLiteral("userPresetList"));
    m_userPresets->setToolTip(tr("Your presets (File ▸ Save as Preset…); double-click to start a new scene from one"));
    connect(m_userPresets, &QListWidget::itemActivated, this, [files](QListWidgetItem *item) {
        if (!item->data(Qt::UserRole).toString().isEmpty())
            files->newFromPreset(item->data(Qt::UserRole).toString());
    });
    auto currentUserPreset = [this] {
        QListWidgetItem *item = m_userPresets->currentItem();
        return item ? item->data(Qt::UserRole).toString() : QString();
    };
    auto *openUser = new QAction(tr("Open"), m_userPresets);
    connect(openUser, &QAction::triggered, this, [files, currentUserPreset] {
        if (const QString id = currentUserPreset(); !id.isEmpty())
            files->newFromPreset(id);
    });
    auto *renameUser = new QAction(tr("Rename…"), m_userPresets);
    renameUser->setObjectName(QStringLiteral("RenameUserPreset"));
    connect(renameUser, &QAction::triggered, this, [presets, currentUserPreset] {
        if (const QString id = currentUserPreset(); !id.isEmpty())
            presets->askRename(id);
    });
    auto *deleteUser = new QAction(tr("Delete"), m_userPresets);
    deleteUser->setObjectName(QStringLiteral("DeleteUserPreset"));
    connect(deleteUser, &QAction::triggered, this, [presets, currentUserPreset] {
        if (const QString id = currentUserPreset(); !id.isEmpty())
            presets->askDelete(id);
    });
    m_userPresets->addActions({ openUser, renameUser, deleteUser });
    m_userPresets->setContextMenuPolicy(Qt::ActionsContextMenu);
    connect(presets, &PresetActions::presetsChanged, this, &SceneDock::refreshUserPresets);
    splitter->addWidget(titled(tr("My presets"), m_userPresets, splitter));

    m_recent = new QListWidget(splitter);
    connect(m_recent, &QListWidget::itemActivated, this, [files](QListWidgetItem *item) {
        const QString path = item->data(Qt::UserRole).toString();
        if (!path.isEmpty())
            files->openFile(path);
    });
    connect(files, &FileActions::recentFilesChanged, this, &SceneDock::refreshRecent);
    m_recent->setObjectName(QStringLiteral("recentList"));
    auto *openRecent = new QAction(tr("Open"), m_recent);
    connect(openRecent, &QAction::triggered, this, [this, files] {
        if (QListWidgetItem *item = m_recent->currentItem();
            item && !item->data(Qt::UserRole).toString().isEmpty())
            files->openFile(item->data(Qt::UserRole).toString());
    });
    auto *forget = new QAction(tr("Remove from Recent Files"), m_recent);
    connect(forget, &QAction::triggered, this, [this] {
        if (QListWidgetItem *item = m_recent->currentItem();
            item && !item->data(Qt::UserRole).toString().isEmpty()) {
            AppSettings::removeRecentFile(item->data(Qt::UserRole).toString());
            refreshRecent();
        }
    });
    m_recent->addActions({ openRecent, forget });
    m_recent->setContextMenuPolicy(Qt::ActionsContextMenu);
    splitter->addWidget(titled(tr("Recent files"), m_recent, splitter));

    splitter->setSizes({220, 110, 90});
    layout->addWidget(splitter, 1);
    setWidget(body);

    connect(window, &MainWindow::documentChanged, this, &SceneDock::setDocument);
    refreshRecent();
    refreshUserPresets();
}

void SceneDock::refreshUserPresets()
{
    m_userPresets->clear();
    for (const UserPreset &u : drape::userPresetList()) { // the core's list, not the widget
        if (u.kind != UserPresetKind::Scene)
            continue;
        auto *item = new QListWidgetItem(QString::fromStdString(u.id), m_userPresets);
        item->setData(Qt::UserRole, QString::fromStdString(u.id));
        item->setToolTip(QString::fromStdString(u.path));
        if (u.shadowed) {
            // Never silently: the built-in preset of that name is what opens.
            item->setText(tr("%1 (hidden by the built-in preset; rename it)").arg(item->text()));
            item->setData(Qt::UserRole, QString());
        }
    }
    if (m_userPresets->count() == 0) {
        auto *item = new QListWidgetItem(tr("None yet: File ▸ Save as Preset…"), m_userPresets);
        item->setFlags(Qt::NoItemFlags);
    }
}

void SceneDock::refreshRecent()
{
    m_recent->clear();
    const QStringList files = AppSettings::recentFiles();
    for (const QString &path : files) {
        auto *item = new QListWidgetItem(QFileInfo(path).fileName(), m_recent);
        item->setToolTip(path);
        item->setData(Qt::UserRole, path);
    }
    if (files.isEmpty()) {
        auto *item = new QListWidgetItem(tr("No recent files"), m_recent);
        item->setFlags(Qt::NoItemFlags);
    }
}

void SceneDock::setDocument(Document *document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (m_document) {
        connect(m_document, &Document::changed, this, [this](Change what) {
            if (what & (Change::Cloths | Change::Colliders | Change::Topology | Change::Pins))
                refreshContents();
        });
        connect(m_document, &Document::modifiedChanged, this, &SceneDock::refreshContents);
        connect(m_document, &Document::filePathChanged, this, &SceneDock::refreshContents);
        connect(m_document, &Document::simulationReset, this, &SceneDock::refreshContents);
    }
    refreshContents();
}

void SceneDock::refreshContents()
{
    if (!m_document) {
        m_title->clear();
        m_revert->setEnabled(false);
        return;
    }
    const Scene &scene = m_document->scene();
    QString title = QStringLiteral("<b>%1</b>").arg(QString::fromStdString(scene.name).toHtmlEscaped());
    if (!scene.description.empty())
        title += QStringLiteral("<br><small>%1</small>").arg(QString::fromStdString(scene.description).toHtmlEscaped());
    m_title->setText(title);
    m_title->setToolTip(m_document->filePath());
    m_revert->setEnabled(!m_document->filePath().isEmpty() && m_document->isModified());
    // Show the description of the preset this scene came from (matched by name).
    for (int i = 0; i < m_presets->count(); ++i) {
        if (m_presets->item(i)->text() == QString::fromStdString(scene.name) && !m_presets->currentItem())
            m_presets->setCurrentRow(i);
    }

}

} // namespace drape
