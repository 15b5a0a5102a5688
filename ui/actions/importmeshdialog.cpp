#include "actions/importmeshdialog.h"

#include "document/document.h"
#include "mesh/meshobject.h"
#include "scene/scenebudget.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>

namespace drape {

namespace {

struct Unit {
    const char *name;
    float metres;
};
constexpr Unit kUnits[] = {{QT_TRANSLATE_NOOP("ImportMeshDialog", "metres"), 1.f},
                           {QT_TRANSLATE_NOOP("ImportMeshDialog", "centimetres"), 0.01f},
                           {QT_TRANSLATE_NOOP("ImportMeshDialog", "millimetres"), 0.001f},
                           {QT_TRANSLATE_NOOP("ImportMeshDialog", "inches"), 0.0254f}};

} // namespace

ImportMeshDialog::ImportMeshDialog(const QString &path, QWidget *parent)
    : QDialog(parent), m_path(path), m_role(new QComboBox(this)), m_units(new QComboBox(this)),
      m_up(new QComboBox(this)), m_fabric(new QComboBox(this)), m_summary(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(QStringLiteral("ImportMeshDialog"));
    setWindowTitle(tr("Import “%1”").arg(QFileInfo(path).fileName()));
    m_role->addItems({tr("Cloth (the mesh's vertices become particles)"), tr("Collider (a static surface)")});
    for (const Unit &u : kUnits)
        m_units->addItem(tr(u.name), double(u.metres));
    m_up->addItems({tr("Y up (glTF, most OBJ)"), tr("Z up (CAD, Blender, many STL)")});
    for (const Material &m : materialPresets())
        m_fabric->addItem(QString::fromStdString(m.name));
    m_summary->setWordWrap(true);
    m_summary->setMinimumWidth(360);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Add to Scene"));

    auto *form = new QFormLayout(this);
    form->addRow(tr("Add as:"), m_role);
    form->addRow(tr("File units:"), m_units);
    form->addRow(tr("Up axis:"), m_up);
    form->addRow(tr("Fabric:"), m_fabric);
    form->addRow(m_summary);
    form->addRow(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_role, &QComboBox::currentIndexChanged, this, &ImportMeshDialog::reread);
    connect(m_units, &QComboBox::currentIndexChanged, this, &ImportMeshDialog::reread);
    connect(m_up, &QComboBox::currentIndexChanged, this, &ImportMeshDialog::reread);
    reread();
}

void ImportMeshDialog::reread()
{
    MeshImportOptions options;
    options.scale = float(m_units->currentData().toDouble());
    options.up = m_up->currentIndex() == 1 ? UpAxis::Z : UpAxis::Y;
    m_read = importMesh(QFile::encodeName(m_path).toStdString(), options);
    m_fabric->setEnabled(m_role->currentIndex() == 0);
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(readOk());
    m_summary->setText(summary());
}

QString ImportMeshDialog::summary() const
{
    if (!m_read)
        return {};
    if (!m_read->ok())
        return QString::fromStdString(m_read->error);
    Scene preview;
    const MeshAddition a = addMeshToScene(preview, m_read->mesh,
                                          m_role->currentIndex() == 0 ? MeshRole::Cloth : MeshRole::Collider,
                                          QFileInfo(m_path).completeBaseName().toStdString());
    QString text = QString::fromStdString(describe(a));
    // What cleaning the file found (welded, degenerate, duplicate, non-manifold, …), with counts.
    for (const std::string &w : m_read->report.warnings())
        text += QStringLiteral("\n") + tr("Warning: %1").arg(QString::fromStdString(w));
    return text;
}

QString ImportMeshDialog::addTo(Document &document) const
{
    if (!readOk())
        return m_read ? QString::fromStdString(m_read->error) : tr("The file was not read.");
    Scene next = document.scene();
    const MeshRole role = m_role->currentIndex() == 0 ? MeshRole::Cloth : MeshRole::Collider;
    const Material fabric = materialPresets().at(std::size_t(std::max(0, m_fabric->currentIndex())));
    addMeshToScene(next, m_read->mesh, role, QFileInfo(m_path).completeBaseName().toStdString(), fabric);
    const std::string over = checkBudget(sceneTotals(next), document.budget());
    if (!over.empty())
        return tr("“%1” was not added: %2").arg(QFileInfo(m_path).fileName(), QString::fromStdString(over));
    return role == MeshRole::Cloth ? document.addCloth(next.cloths.back()) : document.addCollider(next.colliders.back());
}

} // namespace drape
