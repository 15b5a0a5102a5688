#include "actions/newscenedialog.h"

#include "document/presetcatalog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

namespace drape {

namespace {

constexpr int kKeyRole = Qt::UserRole;
constexpr int kDescriptionRole = Qt::UserRole + 1;

void addHeader(QListWidget *list, const QString &text)
{
    auto *item = new QListWidgetItem(text, list);
    item->setFlags(Qt::NoItemFlags);
    QFont bold = item->font();
    bold.setBold(true);
    item->setFont(bold);
}

} // namespace

NewSceneDialog::NewSceneDialog(QWidget *parent) : QDialog(parent)
{
    setWindowTitle(tr("New Scene"));
    setObjectName(QStringLiteral("NewSceneDialog"));
    auto *layout = new QVBoxLayout(this);
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("newSceneChoices"));
    auto *empty = new QListWidgetItem(tr("Empty scene"), m_list);
    empty->setData(kKeyRole, QString());
    empty->setData(kDescriptionRole,
                   tr("A ground plane, the default camera and settings, nothing else: add cloths and colliders "
                      "from the Add menu."));
    addHeader(m_list, tr("Built-in presets"));
    for (const PresetInfo &p : builtinPresets()) {
        auto *item = new QListWidgetItem(p.name, m_list);
        item->setData(kKeyRole, p.key);
        item->setData(kDescriptionRole, p.description);
    }
    const QStringList mine = userScenePresets();
    if (!mine.isEmpty()) {
        addHeader(m_list, tr("My presets"));
        for (const QString &id : mine) {
            auto *item = new QListWidgetItem(id, m_list);
            item->setData(kKeyRole, id);
            item->setData(kDescriptionRole, tr("Your preset “%1”").arg(id));
        }
    }
    m_description = new QLabel(this);
    m_description->setWordWrap(true);
    m_description->setMinimumHeight(m_description->fontMetrics().lineSpacing() * 3);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(m_list, 1);
    layout->addWidget(m_description);
    layout->addWidget(buttons);
    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem *item) {
        m_description->setText(item ? item->data(kDescriptionRole).toString() : QString());
    });
    connect(m_list, &QListWidget::itemActivated, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    m_list->setCurrentRow(0);
    resize(420, 460);
}

QString NewSceneDialog::choice() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(kKeyRole).toString() : QString();
}

} // namespace drape
